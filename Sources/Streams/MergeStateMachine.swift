/// The pure state of one merge iteration: every event returns what the storage must do.
///
/// Each upstream owns one slot. An upstream hands its element straight to a waiting consumer, or
/// leaves it in its slot; either way it parks. It pulls again only once the consumer has its
/// element and asks for another (a later `next()`), so never more than one element per upstream
/// is pulled and not yet consumed, and nothing is pulled for a consumer that stopped asking. A
/// `next()` that finds an element resumes at most one such upstream; one that must wait resumes
/// them all. The state is mutated in place (no enum payload copies), so an element costs no
/// allocation.
@usableFromInline
struct MergeStateMachine<Element: Sendable>: Sendable {
    @usableFromInline
    typealias Downstream = UnsafeContinuation<Element?, any Error>
    /// Resumed with `true` to pull again, `false` to stop.
    @usableFromInline
    typealias Upstream = UnsafeContinuation<Bool, Never>

    @usableFromInline
    enum Phase: Sendable {
        case initial
        case running
        /// An upstream failed: the buffered elements go out, then the error.
        case failing(any Error)
        case finished
    }

    /// What the consumer does with its call to `next()`.
    @usableFromInline
    enum Take: Sendable {
        /// Return the element; resume the upstream that held it, if it was parked.
        case element(Element, resume: Upstream?)
        case end(Result<Element?, any Error>)
        case startTaskThenSuspend
        case suspend
    }

    /// What an upstream does after offering its element.
    @usableFromInline
    enum Delivery: Sendable {
        /// The consumer was waiting: resume it with the element; the upstream stays parked until
        /// the consumer asks again.
        case handOver(Downstream)
        /// The element waits in the slot; the upstream stays parked until it is taken.
        case parked
        case stop
    }

    /// Everything to stop at once: the waiting consumer, the parked upstreams and the task.
    @usableFromInline
    struct Shutdown: Sendable {
        @usableFromInline var downstream: (Downstream, Result<Element?, any Error>)?
        @usableFromInline var stop: [Upstream]
        @usableFromInline var cancel: Task<Void, Never>?

        @inlinable
        init(
            downstream: (Downstream, Result<Element?, any Error>)? = nil, stop: [Upstream] = [],
            cancel: Task<Void, Never>? = nil
        ) {
            self.downstream = downstream
            self.stop = stop
            self.cancel = cancel
        }
    }

    @usableFromInline var phase = Phase.initial
    @usableFromInline var slots: [Element?]
    @usableFromInline var parked: [Upstream?]
    /// Indices of the full slots, oldest first.
    @usableFromInline var ready: [Int] = []
    /// Indices of the upstreams parked with an empty slot, their element consumed: they pull again
    /// when the consumer next asks.
    @usableFromInline var idle: [Int] = []
    @usableFromInline var downstream: Downstream?
    @usableFromInline var active: Int
    @usableFromInline var task: Task<Void, Never>?
    /// Set once the iteration ends; the consumer awaits it before its last `next()` returns.
    @usableFromInline var taskToAwait: Task<Void, Never>?

    @inlinable
    init(upstreamCount: Int) {
        slots = Array(repeating: nil, count: upstreamCount)
        parked = Array(repeating: nil, count: upstreamCount)
        ready.reserveCapacity(upstreamCount)
        idle.reserveCapacity(upstreamCount)
        active = upstreamCount
        if upstreamCount == 0 {
            phase = .finished
        }
    }

    @inlinable
    mutating func next() -> Take {
        if case .initial = phase {
            phase = .running
            return .startTaskThenSuspend
        }
        return take() ?? .suspend
    }

    /// What becomes of a consumer that is about to wait.
    @usableFromInline
    enum Suspension: Sendable {
        /// Something came meanwhile: resume the consumer with it at once.
        case now(Take)
        /// The consumer waits: let these upstreams (every idle one) pull.
        case waiting(resume: [Upstream])
    }

    @inlinable
    mutating func suspend(_ continuation: Downstream) -> Suspension {
        precondition(downstream == nil, "Merge: concurrent calls to next() are not supported")
        if let taken = take() {
            return .now(taken)
        }
        downstream = continuation
        var resume: [Upstream] = []
        for index in idle {
            if let upstream = parked[index].take() {
                resume.append(upstream)
            }
        }
        idle.removeAll(keepingCapacity: true)
        return .waiting(resume: resume)
    }

    @inlinable
    mutating func take() -> Take? {
        switch phase {
        case .initial:
            preconditionFailure("Merge: next() suspended before the iteration started")
        case .running, .failing:
            if !ready.isEmpty {
                let index = ready.removeFirst()
                guard let element = slots[index].take() else {
                    preconditionFailure("Merge: a ready slot was empty")
                }
                // The consumer asked again: the upstream idle longest may pull its next element,
                // and this one waits for the next request (it stays parked, its slot empty).
                let resume = idle.isEmpty ? nil : parked[idle.removeFirst()].take()
                if parked[index] != nil {
                    idle.append(index)
                }
                return .element(element, resume: resume)
            }
            if case .failing(let error) = phase {
                end()
                return .end(.failure(error))
            }
            if active == 0 {
                end()
                return .end(.success(nil))
            }
            return nil
        case .finished:
            return .end(.success(nil))
        }
    }

    @inlinable
    mutating func end() {
        phase = .finished
        taskToAwait = task
        task = nil
    }

    /// Returns the task when it must be cancelled at once (an upstream already failed).
    @inlinable
    mutating func taskStarted(_ task: Task<Void, Never>) -> Task<Void, Never>? {
        switch phase {
        case .initial, .running:
            self.task = task
            return nil
        case .failing:
            self.task = task
            return task
        case .finished:
            taskToAwait = task
            return task
        }
    }

    /// The task the consumer awaits once, after the iteration ended.
    @inlinable
    mutating func takeTaskToAwait() -> Task<Void, Never>? {
        defer { taskToAwait = nil }
        return taskToAwait
    }

    @inlinable
    mutating func deliver(_ element: Element, from index: Int, _ upstream: Upstream) -> Delivery {
        guard case .running = phase else {
            return .stop
        }
        precondition(slots[index] == nil, "Merge: upstream \(index) delivered twice")
        parked[index] = upstream
        if let waiting = downstream {
            downstream = nil
            idle.append(index)
            return .handOver(waiting)
        }
        slots[index] = element
        ready.append(index)
        return .parked
    }

    /// Returns the consumer to resume with `nil` when this was the last upstream.
    @inlinable
    mutating func upstreamFinished() -> Downstream? {
        guard case .running = phase else {
            return nil
        }
        active -= 1
        guard active == 0, ready.isEmpty, let waiting = downstream else {
            return nil
        }
        downstream = nil
        end()
        return waiting
    }

    @inlinable
    mutating func upstreamFailed(_ error: any Error) -> Shutdown {
        guard case .running = phase else {
            return Shutdown()
        }
        if let waiting = downstream {
            downstream = nil
            return shutDown(resuming: (waiting, .failure(error)))
        }
        // The buffered elements go out first: stop their upstreams but keep the slots.
        phase = .failing(error)
        return Shutdown(stop: takeParked(), cancel: task)
    }

    /// The consumer's task was cancelled or its iterator was dropped.
    @inlinable
    mutating func downstreamCancelled() -> Shutdown {
        if case .finished = phase {
            return Shutdown()
        }
        let waiting = downstream
        downstream = nil
        return shutDown(resuming: waiting.map { ($0, .success(nil)) })
    }

    @inlinable
    mutating func shutDown(resuming waiting: (Downstream, Result<Element?, any Error>)?) -> Shutdown {
        let cancel = task
        end()
        ready.removeAll()
        for index in slots.indices {
            slots[index] = nil
        }
        return Shutdown(downstream: waiting, stop: takeParked(), cancel: cancel)
    }

    @inlinable
    mutating func takeParked() -> [Upstream] {
        idle.removeAll()
        var stop: [Upstream] = []
        for index in parked.indices {
            if let upstream = parked[index].take() {
                stop.append(upstream)
            }
        }
        return stop
    }
}
