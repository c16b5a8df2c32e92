/// What a one-shot read asks beyond its rows, kept apart from the ``QueryDescription`` (which
/// names the cached list): whether it wants the rows at all (`HEAD`), a count, and one row.
package struct ReadOptions: Sendable, Hashable {
    /// Only the count: sent as `HEAD`, the answer has no rows; its count is cached under
    /// ``cachedList(of:)``.
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

extension ReadOptions {
    /// The read whose cached list holds the answer to `query` asked with these options: the
    /// query itself, or for `HEAD` (no rows, only a count) the same read limited to no rows and
    /// in no order, so a count never replaces the rows of the read asked without `head`.
    package func cachedList(of query: QueryDescription) -> QueryDescription {
        guard head else { return query }
        var counted = query
        counted.limit = 0
        counted.offset = nil
        counted.order = []
        return counted
    }

    /// Whether the cached list of `query` holds every row the read asks for: not `HEAD`, and no
    /// limit or offset.
    package func readsWholeList(_ query: QueryDescription) -> Bool {
        !head && query.limit == nil && query.offset == nil
    }
}
