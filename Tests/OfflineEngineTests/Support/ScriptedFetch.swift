import Synchronization

@testable import OfflineEngine

/// What one scripted attempt does.
enum ScriptedAttempt: Sendable {
    case answer(FetchOutcome)
    case fail(TestFailure)
}

/// A fetch that plays a script; an attempt with nothing scripted waits until the test pushes its
/// result, so a test can act while an attempt is in flight.
final class ScriptedFetch: Sendable {
    private struct State {
        var script: [ScriptedAttempt] = []
        var held: CheckedContinuation<ScriptedAttempt, any Error>?
    }
    private let state = Mutex(State())
    /// One entry per attempt started, numbered from 1.
    let attempts = AsyncLog<Int>()

    init(_ script: [ScriptedAttempt] = []) {
        state.withLock { $0.script = script }
    }

    /// Gives the held attempt its result, or scripts the next attempt's.
    func push(_ attempt: ScriptedAttempt) {
        let held = state.withLock { state in
            if let held = state.held {
                state.held = nil
                return Optional(held)
            }
            state.script.append(attempt)
            return nil
        }
        held?.resume(returning: attempt)
    }

    func callAsFunction() async throws -> FetchOutcome {
        attempts.append(attempts.values.count + 1)
        let next: ScriptedAttempt = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let scripted = state.withLock { state -> ScriptedAttempt? in
                    if !state.script.isEmpty { return state.script.removeFirst() }
                    state.held = continuation
                    return nil
                }
                if let scripted { continuation.resume(returning: scripted) }
            }
        } onCancel: {
            let held = state.withLock { state in
                defer { state.held = nil }
                return state.held
            }
            held?.resume(throwing: CancellationError())
        }
        switch next {
        case .answer(let outcome): return outcome
        case .fail(let failure): throw failure
        }
    }
}
