import Foundation
import Synchronization

/// An async readers–writer lease: any number of shared holders, or one exclusive holder. A
/// waiting exclusive request holds back new shared ones, so it is never starved.
///
/// A soak's writers hold it shared while the engine fixes who owns their write, and the task
/// that switches users takes it exclusively, so each writer knows its write's owner.
final class SharedLease: Sendable {
    /// One shared hold; ``release()`` may be called any number of times, from any task.
    final class Ticket: Sendable {
        private let lease: SharedLease
        private let held = Mutex(true)

        fileprivate init(_ lease: SharedLease) { self.lease = lease }

        func release() {
            let wasHeld = held.withLock { held in
                defer { held = false }
                return held
            }
            if wasHeld { lease.releaseShared() }
        }
    }

    private struct State {
        var shared = 0
        var exclusive = false
        var exclusiveWaiters: [CheckedContinuation<Void, Never>] = []
        var sharedWaiters: [CheckedContinuation<Void, Never>] = []

        /// Whom a release lets in: the first exclusive waiter once nobody holds the lease, else
        /// (with no exclusive waiter) every shared waiter.
        mutating func handOver() -> [CheckedContinuation<Void, Never>] {
            guard !exclusive else { return [] }
            if !exclusiveWaiters.isEmpty {
                guard shared == 0 else { return [] }
                exclusive = true
                return [exclusiveWaiters.removeFirst()]
            }
            shared += sharedWaiters.count
            defer { sharedWaiters = [] }
            return sharedWaiters
        }
    }

    private let state = Mutex(State())

    /// Waits until no exclusive hold is held or asked for, then holds the lease shared.
    func acquireShared() async -> Ticket {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.exclusive || !state.exclusiveWaiters.isEmpty else {
                    state.shared += 1
                    return true
                }
                state.sharedWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        return Ticket(self)
    }

    /// Runs `body` holding the lease exclusively.
    func withExclusive<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquireExclusive()
        defer { releaseExclusive() }
        return try await body()
    }

    private func acquireExclusive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.exclusive || state.shared > 0 || !state.exclusiveWaiters.isEmpty else {
                    state.exclusive = true
                    return true
                }
                state.exclusiveWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func releaseExclusive() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.exclusive = false
            return state.handOver()
        }
        for continuation in ready { continuation.resume() }
    }

    private func releaseShared() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.shared -= 1
            return state.handOver()
        }
        for continuation in ready { continuation.resume() }
    }
}
