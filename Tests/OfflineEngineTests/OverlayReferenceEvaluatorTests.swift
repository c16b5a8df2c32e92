import Foundation
import Testing

@testable import OfflineEngine

/// The evaluator every overlay test (and the property test's model) uses: the engine's own, so
/// the overlay's rules are shown with what ships. Set it to `ReferenceEvaluator` to check the
/// overlay's logic apart from the evaluator.
typealias TestEvaluator = FilterEvaluator

/// The overlay every overlay test uses.
typealias TestOverlay = Overlay<TestEvaluator>

/// A small test-only evaluator: eq, neq, in and is on exact strings, integers and booleans, with
/// SQL NULL and three-valued logic; anything else (and any doubtful comparison) is unknown.
struct ReferenceEvaluator: RowFilterEvaluating {
    let keyColumns: Set<String>

    init(keyColumns: Set<String>) { self.keyColumns = keyColumns }

    func evaluate(_ filters: [Filter], on row: Row) -> Truth {
        Self.all(filters.map { evaluate($0, on: row) })
    }

    private func evaluate(_ filter: Filter, on row: Row) -> Truth {
        switch filter {
        case .condition(let condition):
            let answer = evaluate(condition, on: row)
            return condition.negated ? Self.not(answer) : answer
        case .and(let parts, let negated):
            let answer = Self.all(parts.map { evaluate($0, on: row) })
            return negated ? Self.not(answer) : answer
        case .or(let parts, let negated):
            let answer = Self.not(Self.all(parts.map { Self.not(evaluate($0, on: row)) }))
            return negated ? Self.not(answer) : answer
        case .unparsed:
            return .unknown
        }
    }

    private func evaluate(_ condition: FilterCondition, on row: Row) -> Truth {
        guard let value = row[condition.column] else { return .unknown }
        switch (condition.op, condition.operand) {
        case (.eq, .value(let text)):
            return equals(value, text, column: condition.column)
        case (.neq, .value(let text)):
            return Self.not(equals(value, text, column: condition.column))
        case (.in, .list(let texts)):
            return Self.not(Self.all(texts.map { Self.not(equals(value, $0, column: condition.column)) }))
        case (.is, .value(let text)):
            switch (text, value) {
            case ("null", .null): return .true
            case ("null", _): return .false
            case ("true", .bool(let flag)): return flag ? .true : .false
            case ("false", .bool(let flag)): return flag ? .false : .true
            case ("true", .null), ("false", .null): return .false
            default: return .unknown
            }
        default:
            return .unknown
        }
    }

    private func equals(_ value: JSONValue, _ text: String, column: String) -> Truth {
        switch value {
        case .string(let string):
            if keyColumns.contains(column) {
                return RowKey.normalised(text: string) == RowKey.normalised(text: text) ? .true : .false
            }
            return string == text ? .true : .false
        case .bool(let flag):
            if text == "true" { return flag ? .true : .false }
            if text == "false" { return flag ? .false : .true }
            return .unknown
        case .number(let number):
            guard Self.isPlainInteger(number.text), Self.isPlainInteger(text) else { return .unknown }
            return number.text == text ? .true : .false
        case .null, .array, .object:
            return .unknown
        }
    }

    private static func isPlainInteger(_ text: String) -> Bool {
        guard let value = Int(text) else { return false }
        return String(value) == text
    }

    static func not(_ truth: Truth) -> Truth {
        switch truth {
        case .true: .false
        case .false: .true
        case .unknown: .unknown
        }
    }

    static func all(_ answers: [Truth]) -> Truth {
        if answers.contains(.false) { return .false }
        return answers.contains(.unknown) ? .unknown : .true
    }
}

/// Small builders for overlay tests.
enum OverlayFixture {
    static func condition(_ column: String, _ op: FilterOperator, _ value: String) -> Filter {
        .condition(FilterCondition(column: column, op: op, operand: .value(value)))
    }

    static func eq(_ column: String, _ value: String) -> Filter { condition(column, .eq, value) }

    static func inList(_ column: String, _ values: [String]) -> Filter {
        .condition(FilterCondition(column: column, op: .in, operand: .list(values)))
    }

    static func list(
        _ table: String = "tasks", select: String = "*", filters: [Filter] = [], rows: [Row],
        limit: Int? = nil, offset: Int? = nil, order: [OrderTerm] = [],
        embedParameters: [QueryParameter] = [],
        fetchTick: Int = 0
    ) -> CachedList {
        CachedList(
            query: QueryDescription(
                table: table, select: select, filters: filters, order: order, limit: limit, offset: offset,
                embedParameters: embedParameters),
            rows: rows, fetchTick: fetchTick)
    }

    static func write(
        _ operation: MutationOperation, table: String = "tasks", rows: [Row] = [], filters: [Filter] = [],
        owner: String? = "alice", onConflict: [String]? = nil, ignoreDuplicates: Bool = false,
        returning: String? = nil, schema: String? = nil
    ) -> Mutation {
        Mutation(
            ownerID: owner, schema: schema, table: table, operation: operation, rows: rows, filters: filters,
            onConflict: onConflict, ignoreDuplicates: ignoreDuplicates, returning: returning)
    }

    /// The rows `list` shows with `writes` queued (all applying) over it.
    static func shown(
        _ list: CachedList, _ writes: [Mutation], otherLists: [CachedList] = [],
        primaryKeys: PrimaryKeys = PrimaryKeys()
    ) -> OverlayResult {
        TestOverlay(primaryKeys: primaryKeys).apply(
            writes.map { OverlayWrite($0, isQueued: true) }, to: list, otherLists: otherLists)
    }

    static func ids(_ rows: [Row]) -> [String] {
        rows.map { $0["id"]?.stringValue ?? "?" }
    }
}

@Suite("Overlay reference evaluator")
struct OverlayReferenceEvaluatorTests {
    let evaluator = ReferenceEvaluator(keyColumns: ["id"])

    @Test("the test evaluator answers eq on booleans, lt as unknown, a missing column as unknown")
    func answers() {
        #expect(evaluator.evaluate([OverlayFixture.eq("done", "false")], on: ["done": false]) == .true)
        #expect(evaluator.evaluate([OverlayFixture.eq("done", "false")], on: ["done": true]) == .false)
        #expect(evaluator.evaluate([OverlayFixture.condition("n", .lt, "3")], on: ["n": 1]) == .unknown)
        #expect(evaluator.evaluate([OverlayFixture.eq("done", "false")], on: ["id": "a"]) == .unknown)
        #expect(evaluator.evaluate([OverlayFixture.condition("x", .is, "null")], on: ["x": nil]) == .true)
    }
}
