import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// The byte parser against the Foundation path, which serves as the oracle.
@Suite("JSON parser", .timeLimit(.minutes(10)))
struct JSONParserTests {
    /// Both paths' outcome for one text: the value, or that it threw.
    private static func outcomes(_ data: Data) -> (parser: JSONValue?, foundation: JSONValue?) {
        (try? JSONParser.parse(data), try? JSONText.parseThroughFoundation(data))
    }

    @Test("random texts read the same as through Foundation")
    func differential() throws {
        var generator = RandomJSONText(seed: 0x4A53_4F4E)
        var mismatches = 0
        for _ in 0..<3_000 {
            let text = generator.text()
            let data = Data(text.utf8)
            let expected = try JSONText.parseThroughFoundation(data)
            let fromData = try JSONParser.parse(data)
            let fromString = try JSONParser.parse(text)
            if fromData != expected || fromString != expected {
                mismatches += 1
                Issue.record("the parsers differ on \(text)")
                if mismatches > 5 { return }
            }
        }
    }

    @Test("prefixes of random texts are accepted or refused by both alike")
    func prefixes() {
        var generator = RandomJSONText(seed: 0x5052_4546)
        var random = SeededRandom(seed: 12)
        var refused = 0
        for _ in 0..<500 {
            let bytes = Array(generator.text().utf8)
            for _ in 0..<4 {
                let data = Data(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
                let (parser, foundation) = JSONParserTests.outcomes(data)
                #expect(parser == foundation, "\(Array(data))")
                if parser == nil { refused += 1 }
            }
        }
        #expect(refused > 500)
    }

    @Test("numbers keep their exact text")
    func numbers() throws {
        let value = try JSONParser.parse("[-0, 1.50, 1e400, 9007199254740993, 0.000001E-7, -1.0E+3]")
        let texts = ["-0", "1.50", "1e400", "9007199254740993", "0.000001E-7", "-1.0E+3"]
        #expect(value == .array(texts.map { .number(JSONNumber(text: $0)!) }))
    }

    @Test("every escape and a surrogate pair decode")
    func escapes() throws {
        let text = #""a\"b\\c\/d\be\ff\ng\rh\ti\u00e9\u00C9\uD83D\uDE00\u0000z""#
        let expected = "a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti\u{E9}\u{C9}\u{1F600}\u{0}z"
        #expect(try JSONParser.parse(text) == .string(expected))
        #expect(try JSONText.parseThroughFoundation(Data(text.utf8)) == .string(expected))
        #expect(try JSONParser.parse("\"日本 😀 e\u{301}\"") == .string("日本 😀 e\u{301}"))
    }

    @Test(
        "a lone surrogate throws on both, as Foundation decides",
        arguments: [#""\uD800""#, #""\uDC00""#, #""\uD800x""#, #""\uD800\uD800""#, #""\uDBFF\u0041""#])
    func loneSurrogates(text: String) {
        #expect(throws: JSONText.MalformedJSON.self) { try JSONParser.parse(text) }
        #expect(throws: JSONText.MalformedJSON.self) { try JSONText.parseThroughFoundation(Data(text.utf8)) }
    }

    @Test("the last of duplicate keys wins, on both")
    func duplicateKeys() throws {
        for text in [#"{"a":1,"b":0,"a":2,"a":3}"#, #"{"a":1,"\u0061":3,"b":0}"#] {
            let expected: JSONValue = ["a": 3, "b": 0]
            #expect(try JSONParser.parse(text) == expected)
            #expect(try JSONText.parseThroughFoundation(Data(text.utf8)) == expected)
        }
    }

    @Test("fragments, whitespace and a leading byte order mark read as on Foundation")
    func accepted() throws {
        let texts: [[UInt8]] = [
            Array(#""a""#.utf8), Array("1".utf8), Array("true".utf8), Array("null".utf8),
            Array(" \t\r\n[ 1 , { \"a\" : [ ] , \"b\" : { } } ] \r\n".utf8), [0xEF, 0xBB, 0xBF, 0x31],
        ]
        for bytes in texts {
            let data = Data(bytes)
            #expect(try JSONParser.parse(data) == JSONText.parseThroughFoundation(data))
        }
    }

    @Test(
        "malformed text throws on both",
        arguments: [
            "01", "-01", "1.", ".5", "+1", "-", "1e", "1E+", "0x1", "1.2.3", "--1", "\"abc", "\"a\\",
            "\"a\u{1}b\"",
            "\"\t\"", "NaN", "Infinity", "-Infinity", "tru", "nulll", "True", "1 x", "[1]]", "{\"a\":1}}",
            "1 2",
            "[1 2]", "{\"a\" 1}", "{\"a\"}", "{1:2}", "[,1]", "[1,,2]", "{,}", #""\x""#, #""\U0041""#,
            #""\u12""#, #""\u12G4""#, "", "  ", "\u{C}1", "\u{A0}1", "[1]//", "['a']", "{a:1}", "[1,",
            "{\"a\":1,",
            "\u{FEFF}\u{FEFF}1", " \u{FEFF}1",
        ])
    func malformed(text: String) {
        #expect(throws: JSONText.MalformedJSON.self) { try JSONParser.parse(text) }
        #expect(throws: JSONText.MalformedJSON.self) { try JSONText.parseThroughFoundation(Data(text.utf8)) }
    }

    @Test(
        "invalid UTF-8 and stray bytes throw on both",
        arguments: [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], [0x31, 0x00],
            [0x22, 0x5C, 0x6E, 0xFF, 0x22], [0xFE, 0xFF, 0x00, 0x31], [0xFF], [0xEF, 0xBB], [],
        ] as [[UInt8]])
    func invalidBytes(bytes: [UInt8]) {
        #expect(throws: JSONText.MalformedJSON.self) { try JSONParser.parse(Data(bytes)) }
        #expect(throws: JSONText.MalformedJSON.self) { try JSONText.parseThroughFoundation(Data(bytes)) }
    }

    /// JSONSerialization on Linux accepts `[1,]`; RFC 8259 does not, and neither does the parser,
    /// which `JSONText.parse` now uses.
    @Test("a trailing comma throws", arguments: ["[1,]", "{\"a\":1,}", "[[1,],]", "[1 , ]"])
    func trailingComma(text: String) {
        #expect(throws: JSONText.MalformedJSON.self) { try JSONParser.parse(text) }
        #expect(throws: JSONText.MalformedJSON.self) { try JSONText.parse(text) }
    }

    @Test("nesting is allowed to Foundation's depth and throws beyond it, even 10,000 deep")
    func depth() throws {
        func arrays(_ depth: Int) -> Data {
            Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        }
        func objects(_ depth: Int) -> Data {
            Data(
                (String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)).utf8
            )
        }
        let limit = JSONParser.depthLimit
        for data in [arrays(limit), objects(limit)] {
            #expect(try JSONParser.parse(data) == JSONText.parseThroughFoundation(data))
        }
        for data in [arrays(limit + 1), objects(limit + 1), arrays(10_000), objects(10_000)] {
            #expect(throws: JSONText.MalformedJSON.self) { try JSONParser.parse(data) }
            #expect(throws: JSONText.MalformedJSON.self) { try JSONText.parseThroughFoundation(data) }
        }
        let unclosed = Data(String(repeating: "[", count: 10_000).utf8)
        #expect(throws: JSONText.MalformedJSON.self) { try JSONParser.parse(unclosed) }
    }

    @Test(
        "an error names none of the text",
        arguments: [
            #"{"secret":01}"#, #""secret"#, #"["secret" "secret"]"#, #"{"secret" 1}"#, "\"secret\u{1}\"",
            "secret", "[1, secret]", #""\uD800secret""#, #""secret\q""#, #"{"secret":1}secret"#,
            #"{secret:1}"#, "[\"secret\",]",
        ])
    func errorsNameNoText(text: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("accepted malformed text")
        } catch let error as JSONText.MalformedJSON {
            #expect(!error.reason.contains("secret"))
            #expect(!String(describing: error).contains("secret"))
        } catch {
            Issue.record("an error of another type: \(type(of: error))")
        }
    }
}
