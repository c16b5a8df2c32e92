import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite("Exact JSON", .timeLimit(.minutes(10)))
struct JSONTextTests {
    @Test("a bigint and a numeric round-trip with their digits")
    func numbersKeepDigits() throws {
        let text = #"{"big":9007199254740993,"num":1.50,"exp":-1.0E+3,"neg":-0}"#
        let value = try JSONText.parse(text)
        #expect(
            value == [
                "big": .number(JSONNumber(text: "9007199254740993")!),
                "num": .number(JSONNumber(text: "1.50")!),
                "exp": .number(JSONNumber(text: "-1.0E+3")!),
                "neg": .number(JSONNumber(text: "-0")!),
            ])
        #expect(JSONText.string(value) == #"{"big":9007199254740993,"exp":-1.0E+3,"neg":-0,"num":1.50}"#)
    }

    @Test("strings that look like tags or numbers stay strings")
    func stringsStayStrings() throws {
        let text = ##"["#1","'x","12","a\"b\\c","\u0000",true,false,null,{"#k":"v"}]"##
        let value = try JSONText.parse(text)
        #expect(value == ["#1", "'x", "12", "a\"b\\c", "\u{0}", true, false, nil, ["#k": "v"]])
        #expect(try JSONText.parse(JSONText.string(value)) == value)
    }

    @Test(
        "a character to escape is escaped wherever it falls in a string, the scan's sixteen-byte chunks included"
    )
    func escapesAtEveryPosition() throws {
        for length in 1...40 {
            for position in 0..<length {
                for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}"] {
                    var characters = Array(repeating: "a", count: length)
                    characters[position] = special
                    let text = characters.joined()
                    let written = JSONText.string(.string(text))
                    #expect(try JSONText.parse(written) == .string(text))
                    #expect(
                        !written.dropFirst().dropLast().contains {
                            $0 == "\n" || $0 == "\u{1}" || $0 == "\u{1F}"
                        })
                }
            }
            let plain = String(repeating: "é ~", count: length)
            #expect(JSONText.string(.string(plain)) == "\"" + plain + "\"")
        }
    }

    @Test(
        "malformed text is a typed error that names none of the text",
        arguments: [
            "{", "[1 2]", "01", "1.", "-", "1e", "\"secret", "{\"a\":1 \"b\":2}", "1.2.3", "--1",
        ])
    func malformed(text: String) {
        #expect(throws: JSONText.MalformedJSON.self) { try JSONText.parse(text) }
        do {
            _ = try JSONText.parse(text)
        } catch {
            #expect(!String(describing: error).contains("secret"))
        }
    }

    @Test("a write survives its persisted form")
    func mutationRoundTrip() throws {
        let mutation = Mutation(
            ownerID: "u1", table: "tasks", operation: .update, rows: [["done": true, "n": 1.5]],
            filters: [
                .condition(FilterCondition(column: "id", op: .in, operand: .list(["1", "a,b"]))),
                .or(
                    [.condition(FilterCondition(column: "x", op: .eq, operand: .value("7"), negated: true))],
                    negated: true),
                .unparsed(key: "y", value: "zz"),
            ],
            onConflict: ["id"], returning: "*", createdAt: Date(timeIntervalSince1970: 1_764_421_234.123))
        #expect(try Mutation(persistedData: mutation.persistedData()) == mutation)
    }

    @Test("a date is written with its milliseconds, rounded, in UTC, and reads back to the same millisecond")
    func timestampsRoundTrip() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<2_000 {
            // From 1906 to 2223, negative times (before 1970) included.
            let milliseconds = Int64.random(in: -2_000_000_000_000...8_000_000_000_000, using: &random)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
            let text = ISO8601Timestamp.string(from: date)
            #expect(text.hasSuffix("Z") && text.count == 24, "\(text)")
            let back = try #require(ISO8601Timestamp.date(from: text))
            #expect(Int64((back.timeIntervalSince1970 * 1_000).rounded()) == milliseconds, "\(text)")
        }
        #expect(
            ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
    }
}
