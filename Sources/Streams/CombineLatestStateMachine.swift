/// The pure state of one combineLatest iteration: every event returns the effects to perform.
///
/// Each side keeps its latest value and at most one newer, not yet emitted value. A side parks
/// until the downstream demands and the side has nothing pending, so nothing is pulled ahead of
/// the consumer by more than one element per side.
struct CombineLatestStateMachine: Sendable {
    typealias Downstream = UnsafeContinuation<[any Sendable]?, any Error>
    typealias Upstream = UnsafeContinuation<Bool, Never>

    private struct Side: Sendable {
        var latest: (any Sendable)?
        var pending: (any Sendable)?
        var finished = false
        var parked: Upstream?

        var hasValue: Bool { latest != nil || pending != nil }
    }

    private struct Running: Sendable {
        var task: Task<Void, Never>?
        var sides: [Side]
        var downstream: Downstream?

        var canEmit: Bool {
            sides.contains { $0.pending != nil } && sides.allSatisfy(\.hasValue)
        }

        var allFinished: Bool { sides.allSatisfy(\.finished) }

        /// Moves every pending value into `latest` and returns the combination.
        mutating func emit() -> [any Sendable] {
            var values: [any Sendable] = []
            values.reserveCapacity(sides.count)
            for index in sides.indices {
                if let pending = sides[index].pending {
                    sides[index].latest = pending
                    sides[index].pending = nil
                }
                guard let value = sides[index].latest else {
                    preconditionFailure("CombineLatest: emitting while a side has no value")
                }
                values.append(value)
            }
            return values
        }

        mutating func takeParked(where include: (Side) -> Bool) -> [Upstream] {
            var parked: [Upstream] = []
            for index in sides.indices where include(sides[index]) {
                if let continuation = sides[index].parked {
                    parked.append(continuation)
                    sides[index].parked = nil
                }
            }
            return parked
        }
    }

    private enum State: Sendable {
        case initial(sideCount: Int)
        case running(Running)
        case failed(any Error)
        case finished
    }

    /// What `next()` does before creating a continuation.
    enum NextAction {
        case values([any Sendable])
        case finish
        case fail(any Error)
        case startTaskThenSuspend
        case suspend
    }

    /// Side effects the storage performs outside the lock.
    struct Effects: Sendable {
        var downstream: (Downstream, Result<[any Sendable]?, any Error>)?
        var resumeUpstreams: [Upstream] = []
        var stopUpstreams: [Upstream] = []
        var cancel: Task<Void, Never>?

        static var none: Effects { Effects() }
    }

    private var state: State

    init(sideCount: Int) {
        state = sideCount == 0 ? .finished : .initial(sideCount: sideCount)
    }

    mutating func next() -> NextAction {
        switch state {
        case .initial(let sideCount):
            state = .running(Running(sides: Array(repeating: Side(), count: sideCount)))
            return .startTaskThenSuspend
        case .running(var running):
            if running.canEmit {
                let values = running.emit()
                state = .running(running)
                return .values(values)
            }
            if running.allFinished {
                state = .finished
                return .finish
            }
            return .suspend
        case .failed(let error):
            state = .finished
            return .fail(error)
        case .finished:
            return .finish
        }
    }

    mutating func next(_ continuation: Downstream) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("CombineLatest: next(continuation) before the iteration started")
        case .running(var running):
            precondition(
                running.downstream == nil, "CombineLatest: concurrent next() calls are not supported")
            if running.canEmit {
                let values = running.emit()
                state = .running(running)
                return Effects(downstream: (continuation, .success(values)))
            }
            if running.allFinished {
                state = .finished
                return Effects(downstream: (continuation, .success(nil)))
            }
            running.downstream = continuation
            let demanded = running.takeParked { $0.pending == nil }
            state = .running(running)
            return Effects(resumeUpstreams: demanded)
        case .failed(let error):
            state = .finished
            return Effects(downstream: (continuation, .failure(error)))
        case .finished:
            return Effects(downstream: (continuation, .success(nil)))
        }
    }

    mutating func taskStarted(_ task: Task<Void, Never>) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("CombineLatest: task started before the iteration started")
        case .running(var running):
            running.task = task
            state = .running(running)
            return .none
        case .failed, .finished:
            return Effects(cancel: task)
        }
    }

    mutating func upstreamWaitsForDemand(side: Int, _ continuation: Upstream) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("CombineLatest: an upstream ran before the iteration started")
        case .running(var running):
            precondition(running.sides[side].parked == nil, "CombineLatest: side \(side) parked twice")
            if running.downstream != nil && running.sides[side].pending == nil {
                return Effects(resumeUpstreams: [continuation])
            }
            running.sides[side].parked = continuation
            state = .running(running)
            return .none
        case .failed, .finished:
            return Effects(stopUpstreams: [continuation])
        }
    }

    mutating func upstreamProduced(side: Int, _ value: any Sendable) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("CombineLatest: an upstream produced before the iteration started")
        case .running(var running):
            precondition(running.sides[side].pending == nil, "CombineLatest: side \(side) produced twice")
            running.sides[side].pending = value
            guard let downstream = running.downstream, running.canEmit else {
                state = .running(running)
                return .none
            }
            running.downstream = nil
            let values = running.emit()
            state = .running(running)
            return Effects(downstream: (downstream, .success(values)))
        case .failed, .finished:
            return .none
        }
    }

    mutating func upstreamFinished(side: Int) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("CombineLatest: an upstream finished before the iteration started")
        case .running(var running):
            running.sides[side].finished = true
            if !running.sides[side].hasValue {
                // No combination can ever be produced: finish now and stop everybody else.
                state = .finished
                return Effects(
                    downstream: running.downstream.map { ($0, .success(nil)) },
                    stopUpstreams: running.takeParked { _ in true },
                    cancel: running.task
                )
            }
            if running.allFinished && !running.canEmit {
                state = .finished
                return Effects(downstream: running.downstream.map { ($0, .success(nil)) })
            }
            state = .running(running)
            return .none
        case .failed, .finished:
            return .none
        }
    }

    mutating func upstreamFailed(_ error: any Error) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("CombineLatest: an upstream failed before the iteration started")
        case .running(var running):
            let parked = running.takeParked { _ in true }
            if let downstream = running.downstream {
                state = .finished
                return Effects(
                    downstream: (downstream, .failure(error)), stopUpstreams: parked, cancel: running.task)
            }
            state = .failed(error)
            return Effects(stopUpstreams: parked, cancel: running.task)
        case .failed, .finished:
            return .none
        }
    }

    /// The consumer's task was cancelled or its iterator was dropped.
    mutating func downstreamCancelled() -> Effects {
        switch state {
        case .initial, .failed:
            state = .finished
            return .none
        case .running(var running):
            state = .finished
            return Effects(
                downstream: running.downstream.map { ($0, .success(nil)) },
                stopUpstreams: running.takeParked { _ in true },
                cancel: running.task
            )
        case .finished:
            return .none
        }
    }
}
