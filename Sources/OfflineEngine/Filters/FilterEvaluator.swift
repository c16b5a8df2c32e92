/// Decides whether a row passes a query's filters, the way PostgreSQL would, or says it cannot
/// tell. Pure: no I/O, no `await`.
///
/// `eq`, `neq`, `in` and `is`, their `not.` forms and `and`/`or` trees are evaluated with
/// Postgres's rules (three-valued logic, NULLs, how each column type reads the filter's text);
/// every other operator, a JSON path, a column the row does not carry and an unparsed parameter
/// are ``Truth/unknown``. A SQL NULL result leaves the row out, so it reads as ``Truth/false``.
struct FilterEvaluator: Sendable {
    /// The table's primary-key columns, whose values are compared as UUIDs when they read as one.
    var keyColumns: Set<String>

    init(keyColumns: Set<String> = ["id"]) {
        self.keyColumns = keyColumns
    }

    /// The answer for the AND of `filters` (a query's top-level filters).
    func evaluate(_ filters: [Filter], on row: Row) -> Truth {
        var result = Verdict.true
        for filter in filters {
            result = result.and(verdict(filter, on: row))
            if result == .false { break }
        }
        return result.truth
    }

    /// The answer for one filter tree.
    func evaluate(_ filter: Filter, on row: Row) -> Truth {
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
            var result = Verdict.true
            for part in parts {
                result = result.and(verdict(part, on: row))
                if result == .false { break }
            }
            return negated ? result.negated : result
        case .or(let parts, let negated):
            guard !parts.isEmpty else { return .undecided }
            var result = Verdict.false
            for part in parts {
                result = result.or(verdict(part, on: row))
                if result == .true { break }
            }
            return negated ? result.negated : result
        case .unparsed:
            return .undecided
        }
    }

    /// One condition, before its `not.`.
    private func verdict(_ condition: FilterCondition, on row: Row) -> Verdict {
        // A JSON path (`data->>k`) reads inside a value: can't tell.
        guard !condition.column.contains("->"), let value = row[condition.column] else {
            return .undecided
        }
        let isKey = keyColumns.contains(condition.column)
        switch (condition.op, condition.operand) {
        case (.eq, .value(let text)):
            return ValueEquality.verdict(value, equals: text, isKey: isKey)
        case (.neq, .value(let text)):
            return ValueEquality.verdict(value, equals: text, isKey: isKey).negated
        case (.in, .list(let items)):
            // `= ANY('{}')` is FALSE even for NULL; the list never holds SQL NULL.
            var result = Verdict.false
            for item in items {
                result = result.or(ValueEquality.verdict(value, equals: item, isKey: isKey))
                if result == .true { break }
            }
            return result
        case (.is, .value(let word)):
            return isVerdict(value, word: word)
        default:
            return .undecided
        }
    }

    /// `IS NULL`, `IS NOT NULL`, `IS TRUE`, `IS FALSE`, `IS UNKNOWN` (words in any case).
    private func isVerdict(_ value: JSONValue, word: String) -> Verdict {
        switch word.lowercased() {
        case "null":
            return nullTest(value)
        case "not_null":
            return nullTest(value).negated
        case "true", "false", "unknown":
            // Only boolean columns take these; on others the server rejects the request.
            let flag: Bool?
            switch value {
            case .bool(let bool): flag = bool
            case .null: flag = nil
            default: return .undecided
            }
            switch word.lowercased() {
            case "true": return flag == true ? .true : .false
            case "false": return flag == false ? .true : .false
            default: return flag == nil ? .true : .false
            }
        default:
            return .undecided
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
