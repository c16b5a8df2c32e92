/// Decides whether a row passes a query's filters, the way PostgreSQL would, or says it cannot
/// tell. Pure: no I/O, no `await`.
///
/// `eq`, `neq`, `in` and `is`, their `not.` forms and `and`/`or` trees are evaluated with
/// Postgres's rules (three-valued logic, NULLs, how each column type reads the filter's text);
/// every other operator, a JSON path, a column the row does not carry and an unparsed parameter
/// are ``Truth/unknown``. A SQL NULL result leaves the row out, so it reads as ``Truth/false``.
package struct FilterEvaluator: Sendable {
    /// The table's primary-key columns, whose values are compared as UUIDs when they read as one.
    package var keyColumns: Set<String>

    /// An evaluator for a table whose primary key is `keyColumns` (`id` unless configured).
    package init(keyColumns: Set<String> = ["id"]) {
        self.keyColumns = keyColumns
    }

    /// The answer for the AND of `filters` (a query's top-level filters).
    package func evaluate(_ filters: [Filter], on row: Row) -> Truth {
        junction(filters, on: row, decidedBy: .false).truth
    }

    /// The answer for one filter tree.
    package func evaluate(_ filter: Filter, on row: Row) -> Truth {
        verdict(filter, on: row).truth
    }

    /// The SQL verdict of a filter tree, NULL kept apart from can't tell.
    func verdict(_ filter: Filter, on row: Row) -> Verdict {
        switch filter {
        case .condition(let condition):
            let result = verdict(condition, on: row)
            return condition.negated ? result.negated : result
        case .and(let parts, let negated):
            guard !parts.isEmpty else { return .undecided }
            let result = junction(parts, on: row, decidedBy: .false)
            return negated ? result.negated : result
        case .or(let parts, let negated):
            guard !parts.isEmpty else { return .undecided }
            let result = junction(parts, on: row, decidedBy: .true)
            return negated ? result.negated : result
        case .unparsed:
            return .undecided
        }
    }

    /// An AND (`decisive` `.false`) or OR (`decisive` `.true`) of `parts`, in SQL's logic; it
    /// stops at the first part that decides it.
    private func junction(_ parts: [Filter], on row: Row, decidedBy decisive: Verdict) -> Verdict {
        var result = decisive.negated
        for part in parts {
            let answer = verdict(part, on: row)
            result = decisive == .true ? result.or(answer) : result.and(answer)
            if result == decisive { break }
        }
        return result
    }

    /// One condition, before its `not.`.
    private func verdict(_ condition: borrowing FilterCondition, on row: Row) -> Verdict {
        // A JSON path (`data->>k`) reads inside a value: can't tell.
        guard let value = row[condition.column], !FilterEvaluator.isJSONPath(condition.column) else {
            return .undecided
        }
        let column = condition.column
        let isKey = { keyColumns.contains(column) }
        switch condition.op.rawValue {
        case "eq":
            guard case .value(let text) = condition.operand else { return .undecided }
            return ValueEquality.verdict(value, equals: text, isKey: isKey)
        case "neq":
            guard case .value(let text) = condition.operand else { return .undecided }
            return ValueEquality.verdict(value, equals: text, isKey: isKey).negated
        case "in":
            guard case .list(let items) = condition.operand else { return .undecided }
            // `= ANY('{}')` is FALSE even for NULL; the list never holds SQL NULL.
            var result = Verdict.false
            for item in items {
                result = result.or(ValueEquality.verdict(value, equals: item, isKey: isKey))
                if result == .true { break }
            }
            return result
        case "is":
            guard case .value(let word) = condition.operand else { return .undecided }
            return isVerdict(value, word: word)
        default:
            return .undecided
        }
    }

    /// Whether a column name reads inside a JSON value (`data->>k`, `data->0`).
    private static func isJSONPath(_ column: String) -> Bool {
        var previous: UInt8 = 0
        for byte in column.utf8 {
            if previous == UInt8(ascii: "-"), byte == UInt8(ascii: ">") { return true }
            previous = byte
        }
        return false
    }

    /// Whether `word` is `expected` (lowercase ASCII) in any case.
    private static func isWord(_ word: String, _ expected: StaticString) -> Bool {
        guard word.utf8.count == expected.utf8CodeUnitCount else { return false }
        var index = 0
        for byte in word.utf8 {
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
            guard lower == expected.utf8Start[index] else { return false }
            index += 1
        }
        return true
    }

    /// `IS NULL`, `IS NOT NULL`, `IS TRUE`, `IS FALSE`, `IS UNKNOWN` (words in any case).
    private func isVerdict(_ value: JSONValue, word: String) -> Verdict {
        if FilterEvaluator.isWord(word, "null") { return nullTest(value) }
        if FilterEvaluator.isWord(word, "not_null") { return nullTest(value).negated }
        let wanted: Bool?
        if FilterEvaluator.isWord(word, "true") {
            wanted = true
        } else if FilterEvaluator.isWord(word, "false") {
            wanted = false
        } else if FilterEvaluator.isWord(word, "unknown") {
            wanted = nil
        } else {
            return .undecided
        }
        // Only boolean columns take these; on others the server rejects the request.
        switch value {
        case .bool(let flag): return flag == wanted ? .true : .false
        case .null: return wanted == nil ? .true : .false
        default: return .undecided
        }
    }

    /// `value IS NULL`. A JSON object may be a composite row, which `IS NULL` calls null when
    /// every field is, and not "not null" when any field is: decided only with no null field.
    private func nullTest(_ value: JSONValue) -> Verdict {
        switch value {
        case .null:
            return .true
        case .object(let members):
            return members.isEmpty || members.values.contains(.null) ? .undecided : .false
        default:
            return .false
        }
    }
}
