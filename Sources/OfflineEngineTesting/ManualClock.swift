import Synchronization

/// A clock that moves only when a test tells it to, so code that waits (retries, timeouts) can be
/// tested in microseconds and without races.
///
/// Inject it wherever the engine takes `any Clock<Duration>`. A test starts the work, waits with
/// ``sleepers(atLeast:)`` until the work is asleep, checks what happened, then calls
/// ``advance(by:)`` to wake the sleepers whose deadlines have come, earliest first.
/// ``sleepLog`` records every duration asked for, so a test can assert a whole backoff schedule.
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock's time line: the time passed since the clock was made.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// How far this instant lies after the clock's start.
        public var offset: Duration

        /// An instant `offset` after the clock's start.
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    /// One sleep or one sleeper-count wait, from the moment its ID is taken to its resumption.
    private enum Entry {
        /// The ID is taken but the continuation is not stored yet.
        case issued
        /// Cancellation ran before the continuation was stored (a tombstone).
        case cancelledEarly
        /// A registered sleeper.
        case sleeping(deadline: Instant, continuation: UnsafeContinuation<Void, any Error>)
        /// A test waiting until at least `count` sleepers are registered.
        case waiting(count: Int, continuation: UnsafeContinuation<Void, Never>)
    }

    private struct State {
        var now: Instant
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var sleeperCount = 0
        var sleepLog: [Duration] = []

        mutating func takeID() -> UInt64 {
            nextID += 1
            entries[nextID] = .issued
            return nextID
        }

        /// Removes and returns the waiters satisfied by the current sleeper count.
        mutating func takeSatisfiedWaiters() -> [UnsafeContinuation<Void, Never>] {
            var ready: [UnsafeContinuation<Void, Never>] = []
            for (id, entry) in entries {
                if case .waiting(let count, let continuation) = entry, count <= sleeperCount {
                    entries[id] = nil
                    ready.append(continuation)
                }
            }
            return ready
        }

        /// Removes and returns the earliest sleeper due at or before `target` (ties: first registered).
        mutating func takeEarliest(dueBy target: Instant) -> (Instant, UnsafeContinuation<Void, any Error>)? {
            var best: (id: UInt64, deadline: Instant, continuation: UnsafeContinuation<Void, any Error>)?
            for (id, entry) in entries {
                guard case .sleeping(let deadline, let continuation) = entry, deadline <= target else {
                    continue
                }
                if let current = best, (current.deadline, current.id) < (deadline, id) { continue }
                best = (id, deadline, continuation)
            }
            guard let best else { return nil }
            entries[best.id] = nil
            sleeperCount -= 1
            return (best.deadline, best.continuation)
        }
    }

    private let state: Mutex<State>

    /// A clock whose time starts at `now` and moves only through ``advance(by:)``.
    public init(now: Instant = Instant()) {
        state = Mutex(State(now: now))
    }

    /// The clock's current time.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step the clock can tell apart: none, time is exact.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleeperCount } }

    /// Every duration asked for (deadline minus the clock's time when the sleep began), in order.
    public var sleepLog: [Duration] { state.withLock { $0.sleepLog } }

    /// Suspends until the clock is advanced to `deadline`; throws `CancellationError` if the task is
    /// cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.sleepLog.append(state.now.duration(to: deadline))
            return state.takeID()
        }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                register(id: id, deadline: deadline, continuation: continuation)
            }
        } onCancel: {
            cancel(id: id)
        }
    }

    private enum Registration {
        case resumeNow
        case cancelled
        case asleep(wakingWaiters: [UnsafeContinuation<Void, Never>])
    }

    private func register(id: UInt64, deadline: Instant, continuation: UnsafeContinuation<Void, any Error>) {
        let registration = state.withLock { state -> Registration in
            if case .cancelledEarly = state.entries[id] {
                state.entries[id] = nil
                return .cancelled
            }
            if deadline <= state.now {
                state.entries[id] = nil
                return .resumeNow
            }
            state.entries[id] = .sleeping(deadline: deadline, continuation: continuation)
            state.sleeperCount += 1
            return .asleep(wakingWaiters: state.takeSatisfiedWaiters())
        }
        // Resume outside the lock: a resumed task may call back into the clock at once.
        switch registration {
        case .resumeNow:
            continuation.resume()
        case .cancelled:
            continuation.resume(throwing: CancellationError())
        case .asleep(let waiters):
            for waiter in waiters { waiter.resume() }
        }
    }

    private enum Cancellation {
        case none
        case sleeper(UnsafeContinuation<Void, any Error>)
        case waiter(UnsafeContinuation<Void, Never>)
    }

    private func cancel(id: UInt64) {
        let cancellation = state.withLock { state -> Cancellation in
            switch state.entries[id] {
            case .none, .cancelledEarly:
                // Already resumed (or already cancelled): nothing to do, and no tombstone to leak.
                return .none
            case .issued:
                // onCancel ran before the continuation was stored: leave a tombstone for register.
                state.entries[id] = .cancelledEarly
                return .none
            case .sleeping(_, let continuation):
                state.entries[id] = nil
                state.sleeperCount -= 1
                return .sleeper(continuation)
            case .waiting(_, let continuation):
                state.entries[id] = nil
                return .waiter(continuation)
            }
        }
        switch cancellation {
        case .none:
            break
        case .sleeper(let continuation):
            continuation.resume(throwing: CancellationError())
        case .waiter(let continuation):
            continuation.resume()
        }
    }

    /// Moves the clock forward by `duration`, waking each sleeper due by then in deadline order.
    ///
    /// The clock's time steps to each sleeper's deadline as it is woken, then to the target.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock forward to `target` (never backwards), waking each sleeper due by then in
    /// deadline order.
    public func advance(to target: Instant) {
        while true {
            let due = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
                guard let (deadline, continuation) = state.takeEarliest(dueBy: target) else {
                    if state.now < target { state.now = target }
                    return nil
                }
                if state.now < deadline { state.now = deadline }
                return continuation
            }
            guard let due else { return }
            due.resume()
        }
    }

    /// Suspends until at least `count` tasks are asleep on this clock (or the waiting task is
    /// cancelled): the sync point a test uses before it checks state or advances the clock.
    public func sleepers(atLeast count: Int) async {
        let id = state.withLock { $0.takeID() }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if case .cancelledEarly = state.entries[id] {
                        state.entries[id] = nil
                        return true
                    }
                    if state.sleeperCount >= count {
                        state.entries[id] = nil
                        return true
                    }
                    state.entries[id] = .waiting(count: count, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            cancel(id: id)
        }
    }
}
