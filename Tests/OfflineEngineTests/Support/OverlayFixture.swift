import Foundation
import Testing

@testable import OfflineEngine

/// The evaluator every overlay test (and the property test's model) uses: the engine's own, so
/// the overlay's rules are shown with what ships.
typealias TestEvaluator = FilterEvaluator

/// The overlay every overlay test uses.
typealias TestOverlay = Overlay<TestEvaluator>

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

    static func ids(_ rows: some Collection<Row>) -> [String] {
        rows.map { $0["id"]?.stringValue ?? "?" }
    }
}
