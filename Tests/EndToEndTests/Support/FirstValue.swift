import Foundation
import OfflineEngine
import OfflineEngineTesting
import Synchronization

/// A value a stream did not yield in time.
struct NotSeen: Error, CustomStringConvertible {
    let seconds: Double
    /// The last value the stream did yield, described (cut to 800 characters), if any.
    var last: String?
    var description: String {
        "no matching value within \(seconds) s" + (last.map { "; the last one: \($0)" } ?? "; none came")
    }
}

/// The first element of `stream` for which `matches` holds; fails after `seconds` of real time
/// (the real server and network take real time) instead of hanging.
func first<S: AsyncSequence & Sendable>(
    of stream: S, within seconds: Double = 30, where matches: @escaping @Sendable (S.Element) -> Bool
) async throws -> S.Element where S.Element: Sendable {
    // The last value seen, to say what the stream showed instead when none matches.
    let last = LatestValue<S.Element>()
    let notSeen: @Sendable () -> NotSeen = {
        NotSeen(
            seconds: seconds, last: last.latest.map { String(String(describing: $0).prefix(800)) })
    }
    do {
        return try await withTimeout(seconds) {
            for try await element in stream {
                if matches(element) { return element }
                last.record(element)
            }
            throw notSeen()
        }
    } catch is TimedOut {
        throw notSeen()
    }
}

/// The first snapshot of a live read for which `matches` holds.
func firstSnapshot(
    of read: ReadQuery, within seconds: Double = 30,
    where matches: @escaping @Sendable (QuerySnapshot) -> Bool
) async throws -> QuerySnapshot {
    try await first(of: read.snapshots(), within: seconds, where: matches)
}
