/// Answers whether a row passes a list of filters, so the overlay can be laid with the real
/// evaluator in the engine and with a small reference evaluator in tests.
protocol RowFilterEvaluating: Sendable {
    /// An evaluator for a table whose primary key is `keyColumns`.
    init(keyColumns: Set<String>)

    /// The answer for the AND of `filters` on `row`.
    func evaluate(_ filters: [Filter], on row: Row) -> Truth
}

extension FilterEvaluator: RowFilterEvaluating {}
