import Foundation
import OfflineEngineTesting

/// Runs `body` while moving `clock` a minute on each time something sleeps on it, so the
/// engine's retry schedule runs through in milliseconds while requests take real time.
func driving<T: Sendable>(_ clock: ManualClock, _ body: @escaping @Sendable () async throws -> T) async throws
    -> T
{
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            while !Task.isCancelled {
                await clock.sleepers(atLeast: 1)
                clock.advance(by: .seconds(60))
                await Task.yield()
            }
            return nil
        }
        defer { group.cancelAll() }
        while let result = try await group.next() {
            if let result { return result }
        }
        throw CancellationError()
    }
}
