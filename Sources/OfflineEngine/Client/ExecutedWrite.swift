/// What became of a write the engine ran: sent or queued, the count, and the rows its `value`
/// decodes (the server's, or a queued write's as the device shows them).
struct ExecutedWrite: Sendable {
    var result: WriteResult
    var count: Int?
    var rows: [Row]

    /// Whether the write was queued rather than sent.
    var isQueued: Bool {
        if case .queued = result { return true }
        return false
    }
}
