import OfflineEngine

extension Step {
    /// An insert sent at once while its first two requests are answered with `answer`: it is
    /// queued instead.
    static func queuedOnSend(_ answer: Answer) -> [Step] {
        [.answer(.post(), answer, times: 2), .insert(["id": 1], ends: .queued), .queue(1)]
    }

    /// The replay's first retry, 300 ms on, empties the queue and the server holds task 1.
    static let replayedOnFirstRetry: [Step] = [
        .advance(.milliseconds(300)), .queue(0), .server("tasks", [1]),
    ]
}
