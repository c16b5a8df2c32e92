import OfflineEngineTesting

@testable import OfflineEngine

/// Makes filters the way an app would write them against the differential table: mostly values
/// read from its rows and near variants of them, plus adversarial text (case, padding, leading
/// zeros, signs, quotes, separators, unicode, values of another type).
struct FilterCaseGenerator {
    /// The columns filters may name, with their rows' values as JSON.
    let columns: [DifferentialColumn]
    /// Each column's values as the rows hold them (JSON from the server).
    let observed: [String: [JSONValue]]

    /// Values of no particular column.
    static let adversarial = [
        "", " ", "NULL", "null", "\"abc\"", "a,b", "(x)", "\\", "é", "true", "yes", "t", "on", "1", "0",
        "1e0", "1.0", "NaN", "inf", "Infinity", "-infinity", "08:00:2b:01:02:03", "0800.2b01.0203",
        "2024-01-15T12:00:00Z", "20240115", "10.0.0.1/32", "{}", "{a,b}", "[1, 2]", "{\"a\":1}", "abc",
        "ABC", "  abc  ", "\"\"", "x\"y", "日本語", "007", "+7", "-0", " 42", "42 ", "1_000", "0x1F",
        "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "happy",
        "Happy", "sad ", "12:00", "epoch", "today",
    ]

    /// A random filter: one condition (70%) or an and/or tree.
    func filter(_ random: inout SeededRandom) -> (filter: Filter, label: String) {
        if random.chance(0.7) {
            let column = random.pick(columns)
            let single = condition(on: column, &random)
            // The per-type answered fractions count eq, neq, in and is only.
            return (.condition(single), single.op == .gt ? "gt (unknown)" : column.label)
        }
        return (tree(depth: 0, &random), "and/or tree")
    }

    private func tree(depth: Int, _ random: inout SeededRandom) -> Filter {
        let count = random.int(in: 2...3)
        var parts = [Filter]()
        for _ in 0..<count {
            if depth < 1, random.chance(0.25) {
                parts.append(tree(depth: depth + 1, &random))
            } else {
                parts.append(.condition(condition(on: random.pick(columns), &random)))
            }
        }
        let negated = random.chance(0.25)
        return random.chance(0.5) ? .and(parts, negated: negated) : .or(parts, negated: negated)
    }

    private func condition(on column: DifferentialColumn, _ random: inout SeededRandom) -> FilterCondition {
        let negated = random.chance(0.25)
        let roll = Double(random.next() % 1000) / 1000
        if roll < 0.35 {
            return FilterCondition(
                column: column.name, op: .eq, operand: .value(value(column, &random)), negated: negated)
        }
        if roll < 0.55 {
            return FilterCondition(
                column: column.name, op: .neq, operand: .value(value(column, &random)), negated: negated)
        }
        if roll < 0.78 {
            let count = random.chance(0.05) ? 0 : random.int(in: 1...4)
            let items = (0..<count).map { _ in value(column, &random) }
            return FilterCondition(column: column.name, op: .in, operand: .list(items), negated: negated)
        }
        if roll < 0.97 {
            let word = random.pick([
                "null", "not_null", "true", "false", "unknown", "NULL", "Not_Null", "TRUE",
            ])
            return FilterCondition(column: column.name, op: .is, operand: .value(word), negated: negated)
        }
        // An operator the engine does not evaluate.
        return FilterCondition(
            column: column.name, op: .gt, operand: .value(value(column, &random)), negated: negated)
    }

    /// A value for `column`: from its rows (60%), a near variant (25%), anything else (15%).
    private func value(_ column: DifferentialColumn, _ random: inout SeededRandom) -> String {
        let seen = (observed[column.name] ?? []).compactMap(FilterCaseGenerator.text(of:))
        let roll = random.next() % 100
        if roll < 60, !seen.isEmpty { return random.pick(seen) }
        if roll < 85, !seen.isEmpty { return variant(of: random.pick(seen), &random) }
        if random.chance(0.4) {
            let other = random.pick(columns)
            let values = (observed[other.name] ?? []).compactMap(FilterCaseGenerator.text(of:))
            if !values.isEmpty { return random.pick(values) }
        }
        return random.pick(FilterCaseGenerator.adversarial)
    }

    /// The text an app would filter with for a value it read.
    static func text(of value: JSONValue) -> String? {
        switch value {
        case .null: return nil
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return number.text
        case .string(let string): return string
        case .array, .object: return JSONText.string(value)
        }
    }

    /// A near variant: another number for numbers, another spelling now and then.
    private func variant(of text: String, _ random: inout SeededRandom) -> String {
        if let number = Int(text), random.chance(0.75) {
            return String(number &+ random.pick([-2, -1, 1, 2, 10, 100]))
        }
        if PostgresInput.isCanonicalUUID(text), random.chance(0.6) {
            var characters = Array(text)
            let index = random.pick([0, 5, 10, 20, 35])
            characters[index] = characters[index] == "0" ? "1" : "0"
            return String(characters)
        }
        switch random.next() % 16 {
        case 0: return text.uppercased()
        case 1: return text.lowercased()
        case 2: return text + " "
        case 3: return " " + text
        case 4: return text + "x"
        case 5: return String(text.dropLast())
        case 6: return "\"" + text + "\""
        case 7: return "0" + text
        case 8: return "+" + text
        case 9: return text + ".0"
        case 10: return text.capitalized
        case 11: return text.replacingOccurrences(of: "-", with: "")
        case 12: return "{" + text + "}"
        case 13:
            return text.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "+00:00", with: "Z")
        case 14: return text + "e0"
        default: return String(text.reversed())
        }
    }
}
