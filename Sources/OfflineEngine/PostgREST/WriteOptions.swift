/// What a write sent at once asks beyond PostgREST's default answer: a count, one object, and
/// (for the app, not the request) its rows back when it is queued. Not kept in the queue: a
/// replay's answer has no reader.
package struct WriteOptions: Sendable, Hashable {
    /// The count PostgREST is asked for, if any.
    package var count: CountOption?
    /// Every row or one; ``ResultShape/single`` and ``ResultShape/maybeSingle`` ask PostgREST
    /// for one object, so that a write matching several (or, for `single`, none) is rolled back
    /// (`406`).
    package var shape = ResultShape.rows
    /// Whether a queued write's rows as the device shows them are wanted (``WrittenRows``).
    package var rowsAsWritten = false

    package init(count: CountOption? = nil, shape: ResultShape = .rows, rowsAsWritten: Bool = false) {
        self.count = count
        self.shape = shape
        self.rowsAsWritten = rowsAsWritten
    }
}
