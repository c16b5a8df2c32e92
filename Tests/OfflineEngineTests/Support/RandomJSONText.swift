import OfflineEngineTesting

/// Random valid JSON texts for differential tests of the JSON parsers: nested arrays and objects
/// (some with duplicate keys), strings with every escape, surrogate pairs, non-ASCII and emoji,
/// numbers in every form the grammar allows, and whitespace between every token.
struct RandomJSONText {
    private var random: SeededRandom

    /// Numbers whose digits a `Double` would lose or that sit at the grammar's edges.
    private static let edgeNumbers = [
        "-0", "0", "1.50", "1e400", "-1e400", "9007199254740993", "0.000001E-7", "-0.0e-0", "1E+2",
        "123456789012345678901234567890", "2.2250738585072014e-308", "1e-400",
    ]
    private static let keys = ["id", "a", "title", "é", "日本", "key with space", "😀", ""]
    private static let whitespace = ["", "", "", " ", "\n", "\t", "\r\n", "  \t"]
    /// String pieces, as written inside the quotes.
    private static let pieces = [
        "plain", " ", "é", "日本語", "😀", "👩‍👩‍👧", "e\u{301}", "\u{7F}", #"\""#, #"\\"#, #"\/"#, #"\b"#,
        #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u0000"#, #"\u001f"#, #"\u00E9"#, #"\uFFFF"#, #"\uD83D\uDE00"#,
        #"\udbff\udfff"#, "#1", "'x", "12", "true",
    ]

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// One JSON text; the top-level value is any kind, as with fragments allowed.
    mutating func text() -> String {
        space() + value(depth: 0) + space()
    }

    /// Mostly an array or object at the top, less often further down, none below depth 5.
    private mutating func value(depth: Int) -> String {
        let nesting = depth == 0 ? 80 : (depth < 5 ? 35 : 0)
        if random.chance(nesting) { return random.chance(50) ? array(depth: depth) : object(depth: depth) }
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: return number()
        case 4..<8: return string()
        default: return random.pick(["true", "false", "null"])
        }
    }

    private mutating func array(depth: Int) -> String {
        let elements = (0..<Int.random(in: 0...5, using: &random)).map { _ in
            space() + value(depth: depth + 1) + space()
        }
        return elements.isEmpty ? "[" + space() + "]" : "[" + elements.joined(separator: ",") + "]"
    }

    private mutating func object(depth: Int) -> String {
        let members = (0..<Int.random(in: 0...5, using: &random)).map { _ in
            let key = random.chance(70) ? escaped(random.pick(RandomJSONText.keys)) : string()
            return space() + key + space() + ":" + space() + value(depth: depth + 1) + space()
        }
        return members.isEmpty ? "{" + space() + "}" : "{" + members.joined(separator: ",") + "}"
    }

    /// A number from the edge list or built from the grammar's parts.
    private mutating func number() -> String {
        if random.chance(30) { return random.pick(RandomJSONText.edgeNumbers) }
        var text = random.chance(30) ? "-" : ""
        text +=
            random.chance(20)
            ? "0" : String(Int.random(in: 1...Int.max, using: &random) >> random.pick([0, 32, 56]))
        if random.chance(40) { text += "." + digits() }
        if random.chance(30) {
            text += random.pick(["e", "E"]) + random.pick(["", "+", "-"]) + digits()
        }
        return text
    }

    private mutating func digits() -> String {
        String((0..<Int.random(in: 1...6, using: &random)).map { _ in random.pick(Array("0123456789")) })
    }

    private mutating func string() -> String {
        let count = Int.random(in: 0...4, using: &random)
        return "\"" + (0..<count).map { _ in random.pick(RandomJSONText.pieces) }.joined() + "\""
    }

    /// A key written as a JSON string, its non-ASCII sometimes as `\u` escapes.
    private mutating func escaped(_ key: String) -> String {
        guard random.chance(20) else { return "\"" + key + "\"" }
        let uppercase = random.chance(50)
        let units = key.utf16.map { unit in
            unit < 0x80 ? String(UnicodeScalar(UInt8(unit))) : "\\u" + hex(unit, uppercase: uppercase)
        }
        return "\"" + units.joined() + "\""
    }

    private func hex(_ unit: UInt16, uppercase: Bool) -> String {
        let digits = String(unit, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    private mutating func space() -> String { random.pick(RandomJSONText.whitespace) }
}
