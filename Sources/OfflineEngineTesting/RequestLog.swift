import OfflineEngine
import Synchronization

/// The requests a ``RecordingTransport`` has seen, in order, with waits for "at least N matching
/// requests" that end when the requests arrive or the waiting task is cancelled.
final class RequestLog: Sendable {
    /// One wait, from the moment its ID is taken to its resumption.
    private enum Entry {
        /// The ID is taken but the continuation is not stored yet.
        case issued
        /// Cancellation ran before the continuation was stored (a tombstone).
        case cancelledEarly
        /// A task waiting until `count` requests match `predicate`.
        case waiting(
            count: Int, predicate: @Sendable (HTTPRequest) -> Bool,
            continuation: CheckedContinuation<[HTTPRequest], any Error>)
    }

    private struct State {
        var requests: [HTTPRequest] = []
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]

        /// Removes and returns the waits the log now satisfies, each with its matching requests.
        mutating func takeSatisfied() -> [(CheckedContinuation<[HTTPRequest], any Error>, [HTTPRequest])] {
            var ready: [(CheckedContinuation<[HTTPRequest], any Error>, [HTTPRequest])] = []
            for (id, entry) in entries {
                guard case .waiting(let count, let predicate, let continuation) = entry else { continue }
                let matching = requests.filter(predicate)
                if matching.count >= count {
                    entries[id] = nil
                    ready.append((continuation, matching))
                }
            }
            return ready
        }
    }

    private let state = Mutex(State())

    /// Every request seen so far, in order.
    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// Adds a request and wakes the waits it completes.
    func append(_ request: HTTPRequest) {
        let ready = state.withLock { state in
            state.requests.append(request)
            return state.takeSatisfied()
        }
        // Resume outside the lock: a resumed task may call back into the log at once.
        for (continuation, matching) in ready { continuation.resume(returning: matching) }
    }

    /// Suspends until at least `count` requests matching `predicate` were seen, and returns them;
    /// throws `CancellationError` if the waiting task is cancelled first.
    func requests(
        atLeast count: Int, where predicate: @escaping @Sendable (HTTPRequest) -> Bool
    ) async throws -> [HTTPRequest] {
        let id = state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = .issued
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let now = state.withLock { state -> Result<[HTTPRequest], any Error>? in
                    if case .cancelledEarly = state.entries[id] {
                        state.entries[id] = nil
                        return .failure(CancellationError())
                    }
                    let matching = state.requests.filter(predicate)
                    if matching.count >= count {
                        state.entries[id] = nil
                        return .success(matching)
                    }
                    state.entries[id] = .waiting(
                        count: count, predicate: predicate, continuation: continuation)
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            cancel(id: id)
        }
    }

    private func cancel(id: UInt64) {
        let cancelled = state.withLock { state -> CheckedContinuation<[HTTPRequest], any Error>? in
            switch state.entries[id] {
            case .none, .cancelledEarly:
                // Already resumed (or already cancelled): nothing to do, no tombstone to leak.
                return nil
            case .issued:
                // onCancel ran before the continuation was stored: leave a tombstone.
                state.entries[id] = .cancelledEarly
                return nil
            case .waiting(_, _, let continuation):
                state.entries[id] = nil
                return continuation
            }
        }
        cancelled?.resume(throwing: CancellationError())
    }
}
