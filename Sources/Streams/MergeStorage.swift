import Synchronization

/// The lock-guarded shared state of one merge iteration, performing the state machine's effects.
///
/// Continuations are resumed and the task cancelled after the lock is released. An element costs
/// one lock round trip on each side and the resumption of its upstream when the consumer asks again.
@usableFromInline
final class MergeStorage<Element: Sendable>: IterationStorage {
    /// Runs the upstream at the given index to completion, reporting to the storage.
    @usableFromInline
    typealias Upstream = @Sendable (MergeStorage<Element>, Int) async -> Void

    @usableFromInline let state: Mutex<MergeStateMachine<Element>>
    @usableFromInline let upstreams: [Upstream]

    @inlinable
    init(upstreams: [Upstream]) {
        self.upstreams = upstreams
        self.state = Mutex(MergeStateMachine(upstreamCount: upstreams.count))
    }

    @inlinable
    func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
        let result: Result<Element?, any Error>
        switch state.withLock({ $0.next() }) {
        case .element(let element, let upstream):
            upstream?.resume(returning: true)
            return element
        case .end(let end):
            result = end
        case .startTaskThenSuspend:
            startTask()
            result = await suspend(isolation: actor)
        case .suspend:
            result = await suspend(isolation: actor)
        }
        if case .success(let element?) = result {
            return element
        }
        // The iteration ended: its upstream task is awaited, so none outlives the last `next()`.
        await state.withLock({ $0.takeTaskToAwait() })?.value
        return try result.get()
    }

    @inlinable
    func suspend(isolation actor: isolated (any Actor)?) async -> Result<Element?, any Error> {
        do {
            return .success(
                try await withTaskCancellationHandler {
                    try await withUnsafeThrowingContinuation {
                        (continuation: MergeStateMachine<Element>.Downstream) in
                        switch state.withLock({ $0.suspend(continuation) }) {
                        case .now(.element(let element, let upstream)):
                            upstream?.resume(returning: true)
                            continuation.resume(returning: element)
                        case .now(.end(let end)):
                            continuation.resume(with: end)
                        case .now(.startTaskThenSuspend), .now(.suspend):
                            break
                        case .waiting(let resume):
                            for upstream in resume {
                                upstream.resume(returning: true)
                            }
                        }
                    }
                } onCancel: {
                    shutDown(state.withLock { $0.downstreamCancelled() })
                })
        } catch {
            return .failure(error)
        }
    }

    @inlinable
    func iteratorDeinitialized() {
        shutDown(state.withLock { $0.downstreamCancelled() })
    }

    /// Hands `element` to the consumer or leaves it in the slot, then parks until the consumer
    /// has it and asks again; `false`: stop pulling.
    @inlinable
    func deliver(_ element: Element, from index: Int) async -> Bool {
        await withUnsafeContinuation { (upstream: MergeStateMachine<Element>.Upstream) in
            switch state.withLock({ $0.deliver(element, from: index, upstream) }) {
            case .handOver(let downstream):
                downstream.resume(returning: element)
            case .parked:
                break
            case .stop:
                upstream.resume(returning: false)
            }
        }
    }

    @inlinable
    func upstreamFinished() {
        state.withLock { $0.upstreamFinished() }?.resume(returning: nil)
    }

    @inlinable
    func upstreamFailed(_ error: any Error) {
        shutDown(state.withLock { $0.upstreamFailed(error) })
    }

    @inlinable
    func startTask() {
        let upstreams = self.upstreams
        let task = Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                for (index, upstream) in upstreams.enumerated() {
                    group.addTask { await upstream(self, index) }
                }
            }
        }
        state.withLock { $0.taskStarted(task) }?.cancel()
    }

    @inlinable
    func shutDown(_ shutdown: MergeStateMachine<Element>.Shutdown) {
        if let (continuation, result) = shutdown.downstream {
            continuation.resume(with: result)
        }
        for upstream in shutdown.stop {
            upstream.resume(returning: false)
        }
        shutdown.cancel?.cancel()
    }

    /// Drives one upstream sequence: pull, hand over or leave in the slot, wait for demand, repeat.
    @inlinable
    static func drive<Base: AsyncSequence & Sendable>(
        _ base: Base
    ) -> Upstream where Base.Element == Element {
        { storage, index in
            var iterator = base.makeAsyncIterator()
            do {
                while let element = try await iterator.next(isolation: nil) {
                    guard await storage.deliver(element, from: index) else {
                        return
                    }
                }
                storage.upstreamFinished()
            } catch {
                storage.upstreamFailed(error)
            }
        }
    }
}
