import Synchronization

/// The lock-guarded state of one share, performing the machine's effects outside the lock.
///
/// Who awaits each run task (so none is left running unobserved):
/// - a new run first awaits its predecessor, so at most one iteration of the base is alive;
/// - the last reader to leave from inside `next()` (its task was cancelled) cancels the run and
///   awaits it before returning `nil`, so the consumer's `for await` ends after the base stopped;
/// - a reader that receives the end awaits the ended run before returning;
/// - `close()` cancels and awaits the latest run.
/// A reader dropped without cancellation (`break` out of a loop) can only cancel the run from its
/// `deinit`; that run is still stored, and the next run or `close()` awaits it.
final class ShareStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    typealias Machine = ShareStateMachine<Base.Element, Base.Failure>

    private let base: Base
    private let alongside: (@Sendable () async -> Void)?
    private let state = Mutex(Machine())

    init(base: Base, alongside: (@Sendable () async -> Void)? = nil) {
        self.base = base
        self.alongside = alongside
    }

    var readerCount: Int {
        state.withLock { $0.readerCount }
    }

    var isRunning: Bool {
        state.withLock { $0.isRunning }
    }

    func register() -> UInt64 {
        state.withLock { $0.register() }
    }

    func next(
        reader id: UInt64,
        isolation actor: isolated (any Actor)?
    ) async throws(Base.Failure) -> Base.Element? {
        if Task.isCancelled {
            await leaveAndWait(reader: id)
            return nil
        }
        let wake: Machine.Wake
        switch poll(reader: id, continuation: nil) {
        case .deliver(let immediate):
            wake = immediate
        case .suspend:
            wake = await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: Machine.Continuation) in
                    switch poll(reader: id, continuation: continuation) {
                    case .deliver(let immediate):
                        continuation.resume(returning: immediate)
                    case .suspend:
                        break
                    }
                }
            } onCancel: {
                state.withLock { $0.cancel(reader: id) }?.resume(returning: .cancelled)
            }
        }
        switch wake {
        case .value(let element):
            return element
        case .end(let completion, let run):
            await run?.value
            try completion.get()
            return nil
        case .cancelled:
            await leaveAndWait(reader: id)
            return nil
        }
    }

    /// Starts the run for reader `id` if none is in progress, without taking a value.
    func start(reader id: UInt64) {
        state.withLock { machine in
            machine.start(reader: id) { epoch, previous in makeRun(epoch: epoch, after: previous) }
        }
    }

    /// The reader was dropped: leave, cancelling the run when it was the last reader.
    ///
    /// A `deinit` cannot await; the cancelled run stays stored for the next run or `close()`.
    func leave(reader id: UInt64) {
        state.withLock { $0.leave(reader: id) }?.cancel()
    }

    func close() async {
        let (waiting, run) = state.withLock { $0.close() }
        for continuation in waiting {
            continuation.resume(returning: .end(.success(()), awaiting: nil))
        }
        run?.cancel()
        await run?.value
    }

    private func leaveAndWait(reader id: UInt64) async {
        guard let run = state.withLock({ $0.leave(reader: id) }) else {
            return
        }
        run.cancel()
        await run.value
    }

    private func poll(reader id: UInt64, continuation: Machine.Continuation?) -> Machine.Poll {
        state.withLock { machine in
            machine.poll(reader: id, continuation: continuation) { epoch, previous in
                makeRun(epoch: epoch, after: previous)
            }
        }
    }

    /// One iteration of the base in its own task, reporting under `epoch`; the work that runs
    /// alongside each run is a child task of it, cancelled and awaited when the iteration stops.
    private func makeRun(epoch: UInt64, after previous: Machine.Run?) -> Machine.Run {
        let alongside = self.alongside
        return Task { [self] in
            // The previous run was cancelled when its readers left; wait until it has really
            // stopped so the base is never iterated twice at once.
            await previous?.value
            guard !Task.isCancelled else {
                // Every reader left before this run began: do not start the base at all.
                return
            }
            let completion = await withTaskGroup(of: Void.self) { group in
                if let alongside {
                    group.addTask { await alongside() }
                }
                let completion = await iterate(epoch: epoch)
                group.cancelAll()
                return completion
            }
            if let completion { ended(completion, epoch: epoch) }
        }
    }

    /// Iterates the base, handing each element to the readers; returns how it ended, or `nil`
    /// when the run was stopped because its readers left.
    private func iterate(epoch: UInt64) async -> Result<Void, Base.Failure>? {
        var iterator = base.makeAsyncIterator()
        do throws(Base.Failure) {
            while let element = try await iterator.next(isolation: nil) {
                guard let waiting = state.withLock({ $0.produced(element, epoch: epoch) }) else {
                    return nil
                }
                for continuation in waiting {
                    continuation.resume(returning: .value(element))
                }
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    private func ended(_ completion: Result<Void, Base.Failure>, epoch: UInt64) {
        let (waiting, wake) = state.withLock { $0.ended(completion, epoch: epoch) }
        for continuation in waiting {
            continuation.resume(returning: wake)
        }
    }
}
