/// The pure state of one merge iteration: every event returns the action the storage must perform.
///
/// Upstreams park in `upstreamWaitsForDemand` until the downstream asks for an element with an empty
/// buffer; each resumed upstream produces at most one element before parking again, so the buffer
/// never holds more than one element per upstream.
struct MergeStateMachine<Element: Sendable>: Sendable {
    typealias Downstream = UnsafeContinuation<Element?, any Error>
    typealias Upstream = UnsafeContinuation<Bool, Never>

    private struct Running: Sendable {
        var task: Task<Void, Never>?
        var buffer: [Element] = []
        var downstream: Downstream?
        var parked: [Upstream] = []
        var activeUpstreams: Int
    }

    private enum State: Sendable {
        case initial
        case running(Running)
        case failed(buffer: [Element], error: any Error)
        case finished
    }

    /// What `next()` does before creating a continuation.
    enum NextAction {
        case element(Element)
        case finish
        case fail(any Error)
        case startTaskThenSuspend
        case suspend
    }

    /// Side effects the storage performs outside the lock.
    struct Effects: Sendable {
        var downstream: (Downstream, Result<Element?, any Error>)?
        var resumeUpstreams: [Upstream] = []
        var stopUpstreams: [Upstream] = []
        var cancel: Task<Void, Never>?

        static var none: Effects { Effects() }
    }

    private var state: State = .initial
    private let upstreamCount: Int

    init(upstreamCount: Int) {
        self.upstreamCount = upstreamCount
        if upstreamCount == 0 {
            state = .finished
        }
    }

    var isFinished: Bool {
        if case .finished = state {
            return true
        }
        return false
    }

    mutating func next() -> NextAction {
        switch state {
        case .initial:
            state = .running(Running(activeUpstreams: upstreamCount))
            return .startTaskThenSuspend
        case .running(var running):
            if running.buffer.isEmpty {
                return .suspend
            }
            let element = running.buffer.removeFirst()
            state = running.buffer.isEmpty && running.activeUpstreams == 0 ? .finished : .running(running)
            return .element(element)
        case .failed(var buffer, let error):
            if buffer.isEmpty {
                state = .finished
                return .fail(error)
            }
            let element = buffer.removeFirst()
            state = .failed(buffer: buffer, error: error)
            return .element(element)
        case .finished:
            return .finish
        }
    }

    mutating func next(_ continuation: Downstream) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("Merge: next(continuation) before the iteration started")
        case .running(var running):
            precondition(running.downstream == nil, "Merge: concurrent calls to next() are not supported")
            if !running.buffer.isEmpty {
                let element = running.buffer.removeFirst()
                state = running.buffer.isEmpty && running.activeUpstreams == 0 ? .finished : .running(running)
                return Effects(downstream: (continuation, .success(element)))
            }
            if running.activeUpstreams == 0 {
                state = .finished
                return Effects(downstream: (continuation, .success(nil)))
            }
            running.downstream = continuation
            let parked = running.parked
            running.parked = []
            state = .running(running)
            return Effects(resumeUpstreams: parked)
        case .failed(var buffer, let error):
            if buffer.isEmpty {
                state = .finished
                return Effects(downstream: (continuation, .failure(error)))
            }
            let element = buffer.removeFirst()
            state = .failed(buffer: buffer, error: error)
            return Effects(downstream: (continuation, .success(element)))
        case .finished:
            return Effects(downstream: (continuation, .success(nil)))
        }
    }

    mutating func taskStarted(_ task: Task<Void, Never>) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("Merge: task started before the iteration started")
        case .running(var running):
            running.task = task
            state = .running(running)
            return .none
        case .failed, .finished:
            return Effects(cancel: task)
        }
    }

    mutating func upstreamWaitsForDemand(_ continuation: Upstream) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("Merge: an upstream ran before the iteration started")
        case .running(var running):
            if running.downstream != nil {
                return Effects(resumeUpstreams: [continuation])
            }
            running.parked.append(continuation)
            state = .running(running)
            return .none
        case .failed, .finished:
            return Effects(stopUpstreams: [continuation])
        }
    }

    mutating func upstreamProduced(_ element: Element) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("Merge: an upstream produced before the iteration started")
        case .running(var running):
            if let downstream = running.downstream {
                running.downstream = nil
                state = .running(running)
                return Effects(downstream: (downstream, .success(element)))
            }
            running.buffer.append(element)
            state = .running(running)
            return .none
        case .failed, .finished:
            return .none
        }
    }

    mutating func upstreamFinished() -> Effects {
        switch state {
        case .initial:
            preconditionFailure("Merge: an upstream finished before the iteration started")
        case .running(var running):
            running.activeUpstreams -= 1
            guard running.activeUpstreams == 0, running.buffer.isEmpty else {
                state = .running(running)
                return .none
            }
            state = .finished
            guard let downstream = running.downstream else {
                return .none
            }
            return Effects(downstream: (downstream, .success(nil)), stopUpstreams: running.parked)
        case .failed, .finished:
            return .none
        }
    }

    mutating func upstreamFailed(_ error: any Error) -> Effects {
        switch state {
        case .initial:
            preconditionFailure("Merge: an upstream failed before the iteration started")
        case .running(let running):
            if let downstream = running.downstream {
                state = .finished
                return Effects(
                    downstream: (downstream, .failure(error)),
                    stopUpstreams: running.parked,
                    cancel: running.task
                )
            }
            state = .failed(buffer: running.buffer, error: error)
            return Effects(stopUpstreams: running.parked, cancel: running.task)
        case .failed, .finished:
            return .none
        }
    }

    /// The consumer's task was cancelled or its iterator was dropped.
    mutating func downstreamCancelled() -> Effects {
        switch state {
        case .initial:
            state = .finished
            return .none
        case .running(let running):
            state = .finished
            return Effects(
                downstream: running.downstream.map { ($0, .success(nil)) },
                stopUpstreams: running.parked,
                cancel: running.task
            )
        case .failed:
            state = .finished
            return .none
        case .finished:
            return .none
        }
    }
}
