import Synchronization

@testable import OfflineEngine

/// Streams of snapshots for a model run more than once: each run reads a stream of its own,
/// handed out in order, fed through `feeds[run]`.
///
/// ```swift
/// let runs = SnapshotRuns(2)
/// let model = LiveQueryModel(rows: [], snapshots: { runs.next() }, decoding: RowsDecoding())
/// runs.feeds[0].yield(snapshot)   // what the first run() reads
/// ```
final class SnapshotRuns: Sendable {
    private let streams: Mutex<[AsyncThrowingStream<QuerySnapshot, any Error>]>
    let feeds: [AsyncThrowingStream<QuerySnapshot, any Error>.Continuation]

    init(_ count: Int) {
        let made = (0..<count).map { _ in AsyncThrowingStream.makeStream(of: QuerySnapshot.self) }
        streams = Mutex(made.map(\.stream))
        feeds = made.map(\.continuation)
    }

    /// The next run's stream.
    func next() -> AsyncThrowingStream<QuerySnapshot, any Error> {
        streams.withLock { $0.removeFirst() }
    }
}
