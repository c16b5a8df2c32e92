import Foundation
import Synchronization

/// The callers waiting for a queued write to leave the queue (``OfflineClient/outcome(of:)``),
/// each woken by that write's own departure: the state names the writes that left in the step
/// that removes them, so a waiter is not woken by every other change of the queue.
final class WriteDepartures: Sendable {
    private enum Waiter {
        /// Registered, not yet suspended.
        case registered
        /// The write left (or the wait ended) before the waiter suspended.
        case ended
        case suspended(CheckedContinuation<Void, Never>)
    }

    private struct Waiters {
        var next = 0
        var byWrite: [UUID: [Int: Waiter]] = [:]
        var finished = false

        /// Forgets one waiter, and its write's entry once it has none.
        mutating func remove(_ id: UUID, _ ticket: Int) {
            byWrite[id]?[ticket] = nil
            if byWrite[id]?.isEmpty == true { byWrite[id] = nil }
        }
    }

    private let waiters = Mutex(Waiters())

    /// Returns once the write `id` has left the queue, the departures finish, or the task is
    /// cancelled. The wait is in place before `isQueued` is asked (once), so a departure between
    /// the two is not missed.
    func wait(for id: UUID, isQueued: () async -> Bool) async {
        let ticket = waiters.withLock { waiters -> Int? in
            guard !waiters.finished else { return nil }
            waiters.next += 1
            waiters.byWrite[id, default: [:]][waiters.next] = .registered
            return waiters.next
        }
        guard let ticket else { return }
        guard await isQueued() else {
            waiters.withLock { $0.remove(id, ticket) }
            return
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let suspended = waiters.withLock { waiters -> Bool in
                    guard case .registered = waiters.byWrite[id]?[ticket], !Task.isCancelled else {
                        waiters.remove(id, ticket)
                        return false
                    }
                    waiters.byWrite[id]?[ticket] = .suspended(continuation)
                    return true
                }
                if !suspended { continuation.resume() }
            }
        } onCancel: {
            end(id, ticket)
        }
    }

    /// The writes `ids` left the queue: their waiters go on.
    func left(_ ids: some Sequence<UUID>) {
        let woken = waiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
            guard !waiters.byWrite.isEmpty else { return [] }
            return ids.flatMap { id in Self.endAll(id, in: &waiters) }
        }
        for continuation in woken { continuation.resume() }
    }

    /// Ends every wait, now and later (the client closes).
    func finish() {
        let woken = waiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
            waiters.finished = true
            return Array(waiters.byWrite.keys).flatMap { id in Self.endAll(id, in: &waiters) }
        }
        for continuation in woken { continuation.resume() }
    }

    /// Ends one waiter: resumed if it suspended, told so if it has not yet.
    private func end(_ id: UUID, _ ticket: Int) {
        let continuation = waiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
            switch waiters.byWrite[id]?[ticket] {
            case .suspended(let continuation):
                waiters.remove(id, ticket)
                return continuation
            case .registered:
                waiters.byWrite[id]?[ticket] = .ended
                return nil
            case .ended, nil:
                return nil
            }
        }
        continuation?.resume()
    }

    /// Ends every waiter of `id`: returns those that suspended; those that have not are told.
    private static func endAll(_ id: UUID, in waiters: inout Waiters) -> [CheckedContinuation<Void, Never>] {
        guard let tickets = waiters.byWrite[id] else { return [] }
        var woken: [CheckedContinuation<Void, Never>] = []
        var kept: [Int: Waiter] = [:]
        for (ticket, waiter) in tickets {
            switch waiter {
            case .suspended(let continuation): woken.append(continuation)
            case .registered, .ended: kept[ticket] = .ended
            }
        }
        waiters.byWrite[id] = kept.isEmpty ? nil : kept
        return woken
    }
}
