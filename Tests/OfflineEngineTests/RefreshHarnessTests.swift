import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

// Shared pieces for the refresh tests: an awaitable log, a scripted fetch and a
// scripted session (Support/RefreshHarness.swift wires them to a Refresher on a ManualClock).

/// An append-only log a test can await: `values(atLeast:)` returns once it holds that many.
final class AsyncLog<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var nextID = 0
        var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        var cancelled: Set<Int> = []
    }
    private let state = Mutex(State())

    var values: [Value] { state.withLock { $0.values } }

    func append(_ value: Value) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.values.append(value)
            let due = state.waiters.filter { $0.value.count <= state.values.count }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until the log holds at least `count` values; returns them. Throws
    /// `CancellationError` when cancelled first: a caller waiting in a loop (for a value that
    /// never comes, under a timeout) stops instead of spinning on a wait that returns at once.
    func values(atLeast count: Int) async throws -> [Value] {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil || state.values.count >= count { return true }
                    state.waiters[id] = (count, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                if let waiter = state.waiters.removeValue(forKey: id) { return Optional(waiter) }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.continuation.resume()
        }
        let held = values
        if held.count < count { try Task.checkCancellation() }
        return held
    }
}

struct TestFailure: Error, Hashable {
    var name: String
}

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

/// A session that can be restoring and can settle (restore finished, or a user signed in).
final class ScriptedSession: Sendable {
    private struct State {
        var restoring: Bool
        var readers: [AsyncStream<Void>.Continuation] = []
    }
    private let state: Mutex<State>

    init(restoring: Bool = false) {
        state = Mutex(State(restoring: restoring))
    }

    var restoring: Bool { state.withLock { $0.restoring } }

    func settled() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        state.withLock { $0.readers.append(continuation) }
        return stream
    }

    /// The stored session finished restoring, or a user signed in.
    func settle() {
        state.withLock { state in
            state.restoring = false
            for reader in state.readers { reader.yield() }
        }
    }
}

@Suite("Refresh test harness", .timeLimit(.minutes(10)))
struct RefreshHarnessTests {
    @Test("a timeout guard fails a wait that never ends, instead of hanging")
    func timeoutGuardFails() async {
        let log = AsyncLog<Int>()
        await #expect(throws: TimedOut.self) {
            _ = try await withTimeout(0.05) { try await log.values(atLeast: 1) }
        }
    }

    @Test("an awaited log returns once it holds the values asked for")
    func logReturnsValues() async throws {
        let log = AsyncLog<Int>()
        log.append(1)
        log.append(2)
        let values = try await withTimeout { try await log.values(atLeast: 2) }
        #expect(values == [1, 2])
    }
}
