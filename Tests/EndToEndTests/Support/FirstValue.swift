import Foundation
import OfflineEngine

/// A value a stream did not yield in time.
struct NotSeen: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "no matching value within \(seconds) s" }
}

/// The first element of `stream` for which `matches` holds; fails after `seconds` of real time
/// (the real server and network take real time) instead of hanging.
func first<S: AsyncSequence & Sendable>(
    of stream: S, within seconds: Double = 30, where matches: @escaping @Sendable (S.Element) -> Bool
) async throws -> S.Element where S.Element: Sendable {
    try await withThrowingTaskGroup(of: S.Element?.self) { group in
        group.addTask {
            for try await element in stream where matches(element) { return element }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw NotSeen(seconds: seconds)
        }
        defer { group.cancelAll() }
        guard let found = try await group.next(), let element = found else { throw NotSeen(seconds: seconds) }
        return element
    }
}

/// The first snapshot of a live read for which `matches` holds.
func firstSnapshot(
    of read: ReadQuery, within seconds: Double = 30,
    where matches: @escaping @Sendable (QuerySnapshot) -> Bool
) async throws -> QuerySnapshot {
    try await first(of: read.snapshots(), within: seconds, where: matches)
}
