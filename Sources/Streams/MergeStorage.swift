import Synchronization

/// The lock-guarded shared state of one merge iteration, performing the state machine's effects.
///
/// Effects (resuming continuations, cancelling the upstream task) always run after the lock is
/// released, so no continuation resumes while the lock is held.
final class MergeStorage<Element: Sendable>: Sendable {
    /// Runs one upstream to completion, reporting to the storage.
    typealias Upstream = @Sendable (MergeStorage<Element>) async -> Void

    private let state: Mutex<MergeStateMachine<Element>>
    private let upstreams: [Upstream]

    init(upstreams: [Upstream]) {
        self.upstreams = upstreams
        self.state = Mutex(MergeStateMachine(upstreamCount: upstreams.count))
    }

    func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
        switch state.withLock({ $0.next() }) {
        case .element(let element):
            return element
        case .finish:
            return nil
        case .fail(let error):
            throw error
        case .startTaskThenSuspend:
            startTask()
        case .suspend:
            break
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation {
                (continuation: MergeStateMachine<Element>.Downstream) in
                perform(state.withLock { $0.next(continuation) })
            }
        } onCancel: {
            perform(state.withLock { $0.downstreamCancelled() })
        }
    }

    /// Called when the last copy of the downstream iterator goes away.
    func iteratorDeinitialized() {
        perform(state.withLock { $0.downstreamCancelled() })
    }

    /// Suspends an upstream until the downstream demands; returns `false` when it must stop.
    func waitForDemand() async -> Bool {
        await withUnsafeContinuation { (continuation: MergeStateMachine<Element>.Upstream) in
            perform(state.withLock { $0.upstreamWaitsForDemand(continuation) })
        }
    }

    func upstreamProduced(_ element: Element) {
        perform(state.withLock { $0.upstreamProduced(element) })
    }

    func upstreamFinished() {
        perform(state.withLock { $0.upstreamFinished() })
    }

    func upstreamFailed(_ error: any Error) {
        perform(state.withLock { $0.upstreamFailed(error) })
    }

    private func startTask() {
        let upstreams = self.upstreams
        let task = Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                for upstream in upstreams {
                    group.addTask { await upstream(self) }
                }
            }
        }
        perform(state.withLock { $0.taskStarted(task) })
    }

    private func perform(_ effects: MergeStateMachine<Element>.Effects) {
        if let (continuation, result) = effects.downstream {
            continuation.resume(with: result)
        }
        for upstream in effects.resumeUpstreams {
            upstream.resume(returning: true)
        }
        for upstream in effects.stopUpstreams {
            upstream.resume(returning: false)
        }
        effects.cancel?.cancel()
    }

    /// Drives one upstream sequence: wait for demand, pull one element, report, repeat.
    static func drive<Base: AsyncSequence & Sendable>(
        _ base: Base
    ) -> Upstream where Base.Element == Element {
        { storage in
            var iterator = base.makeAsyncIterator()
            do {
                while await storage.waitForDemand() {
                    guard let element = try await iterator.next() else {
                        storage.upstreamFinished()
                        return
                    }
                    storage.upstreamProduced(element)
                }
            } catch {
                storage.upstreamFailed(error)
            }
        }
    }
}
