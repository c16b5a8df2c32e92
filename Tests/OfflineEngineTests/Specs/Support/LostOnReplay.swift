import OfflineEngine

extension Step {
    /// `rows` inserted into `tasks` while the network is down, then the network back up with the
    /// replay's first request losing its answer (the server applied it).
    static func lostOnReplay(_ rows: Row...) -> [Step] {
        [.networkDown, .write(SpecWrite(kind: .insert, table: "tasks", rows: rows), ends: .queued)]
            + [.answer(.post(), .lost), .networkUp]
    }

    /// The retry 300 ms on settles the write as applied: it leaves the queue, is not rejected,
    /// and the server holds task 1 once.
    static let appliedOnceOnRetry: [Step] = [
        .advance(.milliseconds(300)), .queue(0), .rejected([]), .server("tasks", [1]),
    ]
}
