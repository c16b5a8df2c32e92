extension Step {
    /// The network known down, then project 10 inserted: the write stays queued.
    static let projectQueuedOffline: [Step] = [
        .networkDown, .write(.insert("projects", ["id": 10]), ends: .queued),
    ]
}
