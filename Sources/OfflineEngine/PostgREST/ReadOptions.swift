/// What a one-shot read asks beyond its rows, kept apart from the ``QueryDescription`` (which
/// names the cached list): whether it wants the rows at all (`HEAD`), a count, and one row.
package struct ReadOptions: Sendable, Hashable {
    /// Only the count: sent as `HEAD`, the answer has no rows and is not cached.
    package var head = false
    /// The count PostgREST is asked for, if any.
    package var count: CountOption?
    /// Every row or one.
    package var shape = ResultShape.rows

    package init(head: Bool = false, count: CountOption? = nil, shape: ResultShape = .rows) {
        self.head = head
        self.count = count
        self.shape = shape
    }
}
