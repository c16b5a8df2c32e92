import Synchronization

/// The lock-guarded shared state of one combineLatest iteration, performing the machine's effects.
///
/// Values are type-erased to `any Sendable` so one storage serves every arity; the public sequence
/// turns each combination back into its typed element. Effects run after the lock is released.
final class CombineLatestStorage: IterationStorage {
    /// Runs one upstream (the side at the given index) to completion, reporting to the storage.
    typealias Upstream = @Sendable (CombineLatestStorage, Int) async -> Void

    private let state: Mutex<CombineLatestStateMachine>
    private let upstreams: [Upstream]

    init(upstreams: [Upstream]) {
        self.upstreams = upstreams
        self.state = Mutex(CombineLatestStateMachine(sideCount: upstreams.count))
    }

    func next(isolation actor: isolated (any Actor)?) async throws -> [any Sendable]? {
        switch state.withLock({ $0.next() }) {
        case .values(let values):
            return values
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
            try await withUnsafeThrowingContinuation { (continuation: CombineLatestStateMachine.Downstream) in
                perform(state.withLock { $0.next(continuation) })
            }
        } onCancel: {
            perform(state.withLock { $0.downstreamCancelled() })
        }
    }

    func iteratorDeinitialized() {
        perform(state.withLock { $0.downstreamCancelled() })
    }

    /// Suspends a side until the downstream demands; returns `false` when it must stop.
    func waitForDemand(side: Int) async -> Bool {
        await withUnsafeContinuation { (continuation: CombineLatestStateMachine.Upstream) in
            perform(state.withLock { $0.upstreamWaitsForDemand(side: side, continuation) })
        }
    }

    func upstreamProduced(side: Int, _ value: any Sendable) {
        perform(state.withLock { $0.upstreamProduced(side: side, value) })
    }

    func upstreamFinished(side: Int) {
        perform(state.withLock { $0.upstreamFinished(side: side) })
    }

    func upstreamFailed(_ error: any Error) {
        perform(state.withLock { $0.upstreamFailed(error) })
    }

    private func startTask() {
        let upstreams = self.upstreams
        let task = Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                for (side, upstream) in upstreams.enumerated() {
                    group.addTask { await upstream(self, side) }
                }
            }
        }
        perform(state.withLock { $0.taskStarted(task) })
    }

    private func perform(_ effects: CombineLatestStateMachine.Effects) {
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
    static func drive<Base: AsyncSequence & Sendable>(_ base: Base) -> Upstream where Base.Element: Sendable {
        { storage, side in
            var iterator = base.makeAsyncIterator()
            do {
                while await storage.waitForDemand(side: side) {
                    guard let element = try await iterator.next() else {
                        storage.upstreamFinished(side: side)
                        return
                    }
                    storage.upstreamProduced(side: side, element)
                }
            } catch {
                storage.upstreamFailed(error)
            }
        }
    }
}
