import OfflineEngineTesting
import Testing

/// Records a stream and checks what it delivered as GRDB's `ValueObservationRecorder` does:
/// the expected values in order, each possibly repeated, any but the last possibly skipped (a
/// keep-newest reader skips values it was too slow for), the last one required.
///
/// ```swift
/// let recorder = SnapshotRecorder(read.snapshots()) { $0.column("id") }
/// try await recorder.expect([[], ["1"], ["1", "2"]])
/// ```
final class SnapshotRecorder<Element: Sendable, Seen: Equatable & Sendable>: Sendable {
    /// Everything received so far, in order.
    let log = AsyncLog<Element>()
    private let seen: @Sendable (Element) -> Seen
    private let task: Task<Void, Never>

    /// Starts reading `stream` at once; `seen` is what of each value is checked.
    init<S: AsyncSequence & Sendable>(_ stream: S, seen: @escaping @Sendable (Element) -> Seen)
    where S.Element == Element {
        self.seen = seen
        task = collect(stream, into: log)
    }

    /// Waits (with a timeout) until the newest value is `expected.last`, then records an issue
    /// unless every value received shows the expected ones in order (repeats and skips allowed).
    func expect(
        _ expected: [Seen], within seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let (log, seen) = (log, seen)
        let last = expected.last
        let received = try await withTimeout(seconds) {
            var values = log.values
            while values.last.map(seen) != last {
                values = try await log.values(atLeast: values.count + 1)
            }
            return values.map(seen)
        }
        var position = 0
        for value in received {
            guard let found = expected[position...].firstIndex(of: value) else {
                Issue.record(
                    "\(value) out of order; expected \(expected), got \(received)",
                    sourceLocation: sourceLocation)
                return
            }
            position = found
        }
    }

    /// Stops reading and waits until the reader has left.
    func stop() async {
        task.cancel()
        await task.value
    }
}
