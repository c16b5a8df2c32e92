import Synchronization

/// How far a client's store and engine are: not asked for yet, opening, open, failed to open, or
/// closed before it opened; and the callers waiting for the open.
///
/// The first caller that needs the engine starts the open as the first job of a new
/// ``BackgroundWork`` (the one the engine then runs its work in), so no caller's task owns it:
/// a caller that is cancelled stops waiting, and the open goes on for the others. Every waiter
/// gets the same result, once; a failed open is kept and thrown to every later caller.
final class ClientOpening: Sendable {
    /// Opens the store and starts the engine, whose background work is the one given.
    typealias Opener = @Sendable (BackgroundWork) async throws -> Engine

    private enum Phase {
        /// Nothing asked for the engine yet.
        case waiting
        /// The open runs in this background work.
        case opening(BackgroundWork)
        case open(Engine)
        /// The open threw this; the background work is left to stop when the client closes.
        case failed(any Error, BackgroundWork)
        /// Closed before the engine opened (or after its open failed).
        case closed
    }

    private struct State {
        var phase = Phase.waiting
        var waiters: [UInt64: CheckedContinuation<Engine, any Error>] = [:]
        /// Waiters cancelled before they were kept: they resume at once when they arrive.
        var cancelled: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
        var closeBegun = false
    }

    /// What ``close(_:)`` has to do, decided under the lock.
    private enum Closing {
        case nothing
        case waitForOpen
        case closeEngine(Engine)
        case stop(BackgroundWork)
    }

    private let state = Mutex(State())
    private let opener: Opener

    init(opener: @escaping Opener) {
        self.opener = opener
    }

    /// The engine, when it is open now.
    var current: Engine? {
        state.withLock { state in
            if case .open(let engine) = state.phase { return engine }
            return nil
        }
    }

    /// The background work the engine runs (or will run) in, starting the open if nothing asked
    /// for it yet. Throws the open's error when it failed, and ``ClientError/closed`` once the
    /// client closed before it opened.
    func background() throws -> BackgroundWork {
        let (found, started) = state.withLock { state -> (Result<BackgroundWork, any Error>, Bool) in
            switch state.phase {
            case .waiting:
                let background = Self.start(&state)
                return (.success(background), true)
            case .opening(let background): return (.success(background), false)
            case .open(let engine): return (.success(engine.background), false)
            case .failed(let error, _): return (.failure(error), false)
            case .closed: return (.failure(ClientError.closed), false)
            }
        }
        let background = try found.get()
        if started { run(background) }
        return background
    }

    /// The open engine: starts the open if nothing asked for it yet, then waits for it.
    ///
    /// Throws the open's error (the same one to every caller), ``ClientError/closed`` once the
    /// client closed before it opened, and `CancellationError` when this caller's task is
    /// cancelled while it waits (the open goes on).
    func engine() async throws -> Engine {
        if let engine = current { return engine }
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await wait(as: id)
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Engine, any Error>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                // Not kept yet: it resumes as it arrives. Once the open ended, it never will be.
                switch state.phase {
                case .waiting, .opening: state.cancelled.insert(id)
                case .open, .failed, .closed: break
                }
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Starts the open if nothing asked for it yet, then waits for its result as waiter `id`.
    private func wait(as id: UInt64) async throws -> Engine {
        try await withCheckedThrowingContinuation { continuation in
            let (now, started) = state.withLock { state -> (Result<Engine, any Error>?, BackgroundWork?) in
                switch state.phase {
                case .open(let engine): return (.success(engine), nil)
                case .failed(let error, _): return (.failure(error), nil)
                case .closed: return (.failure(ClientError.closed), nil)
                case .waiting, .opening:
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), nil) }
                    state.waiters[id] = continuation
                    if case .waiting = state.phase { return (nil, Self.start(&state)) }
                    return (nil, nil)
                }
            }
            if let started { run(started) }
            if let now { continuation.resume(with: now) }
        }
    }

    /// Closes what was opened: the engine once its open ends, or the background work of a failed
    /// open; before any open, only marks the client closed. `closeEngine` closes an open engine.
    /// Returns at once when a close had begun already.
    func close(_ closeEngine: (Engine) async -> Void) async {
        var decided = state.withLock { state -> Closing in
            guard !state.closeBegun else { return .nothing }
            state.closeBegun = true
            return Self.closing(&state)
        }
        if case .waitForOpen = decided {
            // Waited for without regard to cancellation: the open ends soon, and is then closed.
            let id = state.withLock { state in
                state.nextWaiter += 1
                return state.nextWaiter
            }
            _ = try? await wait(as: id)
            decided = state.withLock { Self.closing(&$0) }
        }
        switch decided {
        case .nothing, .waitForOpen: return
        case .closeEngine(let engine): await closeEngine(engine)
        case .stop(let background): await background.stop()
        }
    }

    /// What closing does in `state`'s phase, with the phase it leaves.
    private static func closing(_ state: inout State) -> Closing {
        switch state.phase {
        case .waiting:
            state.phase = .closed
            return .nothing
        case .opening: return .waitForOpen
        case .open(let engine): return .closeEngine(engine)
        case .failed(_, let background):
            state.phase = .closed
            return .stop(background)
        case .closed: return .nothing
        }
    }

    /// Moves a waiting opening to opening, returning the background work to open in.
    private static func start(_ state: inout State) -> BackgroundWork {
        let background = BackgroundWork()
        state.phase = .opening(background)
        return background
    }

    /// Runs the open in `background`, then hands its result to every waiter, once.
    private func run(_ background: BackgroundWork) {
        background.run { [self] in
            let result: Result<Engine, any Error>
            do {
                result = .success(try await opener(background))
            } catch {
                result = .failure(error)
            }
            let waiters = state.withLock { state in
                switch result {
                case .success(let engine): state.phase = .open(engine)
                case .failure(let error): state.phase = .failed(error, background)
                }
                state.cancelled = []
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
    }
}
