import OfflineEngine

/// A change feed a test drives by hand, as an app's bridge from its realtime client would.
struct TestFeed: Sendable {
    let events: AsyncStream<ChangeFeedEvent>
    private let continuation: AsyncStream<ChangeFeedEvent>.Continuation

    init() {
        (events, continuation) = AsyncStream.makeStream(of: ChangeFeedEvent.self)
    }

    func send(_ event: ChangeFeedEvent) {
        continuation.yield(event)
    }

    func send(_ change: RowChange) {
        continuation.yield(.change(change))
    }

    /// Ends the feed: the client's `follow` returns.
    func finish() {
        continuation.finish()
    }
}
