/// Decides whether a row passes a query's filters, the way PostgreSQL would, or says it cannot
/// tell. Pure: no I/O, no `await`.
struct FilterEvaluator: Sendable {
    /// The table's primary-key columns, whose values are compared as UUIDs when they read as one.
    var keyColumns: Set<String>

    init(keyColumns: Set<String> = ["id"]) {
        self.keyColumns = keyColumns
    }

    /// The answer for the AND of `filters` (a query's top-level filters).
    func evaluate(_ filters: [Filter], on row: Row) -> Truth {
        // Placeholder until the evaluator lands: it can tell nothing.
        filters.isEmpty ? .true : .unknown
    }

    /// The answer for one filter tree.
    func evaluate(_ filter: Filter, on row: Row) -> Truth {
        evaluate([filter], on: row)
    }
}
