import Dispatch
import OfflineEngineTesting
import Testing

/// Runs `count` calls of `write` at once from child tasks while the main actor is held, and
/// returns once they all have: a model on the main actor sees the burst only when it runs again,
/// however the writes spread out in time. A burst test then depends on the model taking the
/// newest value when it runs (never a queue of every value between), not on how fast the
/// machine is.
@MainActor
func burstWhileMainActorHeld(
    _ count: Int, within seconds: Double = 30, _ write: @escaping @Sendable (Int) async throws -> Void
) async throws {
    let finished = DispatchGroup()
    for _ in 0..<count { finished.enter() }
    try await withThrowingDiscardingTaskGroup { writers in
        for index in 1...count {
            writers.addTask {
                defer { finished.leave() }
                try await write(index)
            }
        }
        // Held: nothing else runs on the main actor until every write has returned (the writes
        // run on the cooperative pool).
        if finished.wait(timeout: .now() + seconds * realTimeScale) == .timedOut {
            Issue.record("the burst did not end within \(seconds) s")
        }
    }
}
