import Synchronization
import Testing

/// The error the scripted test sequences throw.
struct TestError: Error, Equatable {
    var code = 1
}

/// Raised by `withTimeout` when the body did not finish in time.
struct TimeoutError: Error {}

/// Runs `body`, failing with `TimeoutError` instead of hanging when it takes longer than `seconds`.
///
/// On timeout the body's task is cancelled but not awaited, so even a body that ignores
/// cancellation makes the test fail rather than hang.
func withTimeout<T: Sendable>(
    seconds: Double = 30,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = TimeoutRace<T>()
    return try await withCheckedThrowingContinuation { continuation in
        race.start(continuation)
        let work = Task {
            do {
                race.finish(.success(try await body()))
            } catch {
                race.finish(.failure(error))
            }
        }
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            work.cancel()
            race.finish(.failure(TimeoutError()))
        }
        race.onFinish { timer.cancel() }
    }
}

/// Delivers whichever of the body's result and the timeout comes first, exactly once.
private final class TimeoutRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let finished = state.withLock { state -> Bool in
            guard state.result == nil else {
                return true
            }
            state.cleanup = cleanup
            return false
        }
        if finished {
            cleanup()
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, cleanup) = state.withLock { state in
            guard state.result == nil else {
                return (CheckedContinuation<T, any Error>?.none, (@Sendable () -> Void)?.none)
            }
            state.result = result
            defer {
                state.continuation = nil
                state.cleanup = nil
            }
            return (state.continuation, state.cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
    }
}

/// A shareable atomic integer.
final class AtomicCounter: Sendable {
    private let atomic = Atomic<Int>(0)

    var value: Int { atomic.load(ordering: .sequentiallyConsistent) }

    func add() {
        atomic.add(1, ordering: .sequentiallyConsistent)
    }
}

/// A counter of live iterators that can be awaited until it returns to zero.
final class LiveCounter: Sendable {
    private struct State {
        var count = 0
        var total = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.count } }
    /// How many iterators were ever created.
    var total: Int { state.withLock { $0.total } }

    func increment() {
        state.withLock {
            $0.count += 1
            $0.total += 1
        }
    }

    func decrement() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else {
                return []
            }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Returns once no iterator is alive (immediately if none is).
    func waitUntilZero() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.count == 0 {
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if ready {
                continuation.resume()
            }
        }
    }
}

/// Lets tasks wait until a number of participants have arrived.
final class Countdown: Sendable {
    private let state: Mutex<(remaining: Int, waiters: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) {
        state = Mutex((count, []))
    }

    func arrive() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.remaining -= 1
            guard state.remaining == 0 else {
                return []
            }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.remaining <= 0 {
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if ready {
                continuation.resume()
            }
        }
    }
}

/// Suspends the current task until it is cancelled.
func suspendUntilCancelled() async {
    let slot = CancellationSlot()
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            slot.park(continuation)
        }
    } onCancel: {
        slot.cancel()
    }
}

private final class CancellationSlot: Sendable {
    private let state = Mutex<(cancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>(
        (false, nil))

    func park(_ continuation: CheckedContinuation<Void, Never>) {
        let cancelled = state.withLock { state -> Bool in
            if state.cancelled {
                return true
            }
            state.continuation = continuation
            return false
        }
        if cancelled {
            continuation.resume()
        }
    }

    func cancel() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.cancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}

/// How a `ScriptedSequence` ends after its elements.
enum ScriptEnd: Sendable {
    case finish
    case fail(TestError)
    /// Suspends until the consuming task is cancelled, then finishes.
    case hang
    /// Never finishes without suspending: keeps yielding `Element`s made from a counter until cancelled.
    case count
}

/// A test upstream: yields fixed elements, then finishes, fails, hangs or keeps counting; counts
/// live iterators (incremented at creation, decremented when released) and pulled elements.
struct ScriptedSequence<Element: Sendable>: AsyncSequence, Sendable {
    typealias Failure = TestError

    let elements: [Element]
    let end: ScriptEnd
    let live: LiveCounter
    let pulled = AtomicCounter()
    let counted: @Sendable (Int) -> Element?

    init(_ elements: [Element], end: ScriptEnd = .finish, live: LiveCounter = LiveCounter()) {
        self.elements = elements
        self.end = end
        self.live = live
        self.counted = { $0 as? Element }
    }

    final class Token: Sendable {
        let live: LiveCounter

        init(live: LiveCounter) {
            self.live = live
            live.increment()
        }

        deinit {
            live.decrement()
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: ScriptedSequence
        let token: Token
        var index = 0

        mutating func next() async throws(TestError) -> Element? {
            if index < sequence.elements.count {
                index += 1
                sequence.pulled.add()
                return sequence.elements[index - 1]
            }
            switch sequence.end {
            case .finish:
                return nil
            case .fail(let error):
                throw error
            case .hang:
                await suspendUntilCancelled()
                return nil
            case .count:
                if Task.isCancelled {
                    return nil
                }
                index += 1
                sequence.pulled.add()
                return sequence.counted(index)
            }
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestError) -> Element? {
            try await next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self, token: Token(live: live))
    }
}
