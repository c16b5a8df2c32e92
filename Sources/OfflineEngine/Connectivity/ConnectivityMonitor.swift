import Synchronization

/// Combines what the engine knows about the network into one ``Connectivity`` that every part
/// reads, and tells refreshes and the replay when the network comes back.
///
/// Sources, strongest first: `disableNetwork()` forces `.offline` until `enableNetwork()`; then
/// the app's availability sequence (true/false), when it has said anything; then the system path
/// monitor (Apple platforms); otherwise `.unknown`, treated as up. The app's sequence outranks
/// the system monitor because it can know more (a captive portal, the backend's own reachability).
///
/// Readers: ``current`` synchronously; ``states()`` for each reader a stream that starts with the
/// current state and keeps only the newest for a slow reader; ``networkCameBack()`` for each
/// reader a stream of "the network came back" events: whenever the state leaves `.offline`, turns
/// `.online`, or `enableNetwork()` is called, provided the state is not `.offline` after it.
final class ConnectivityMonitor: Sendable {
    private struct State {
        var forcedOffline = false
        var appAvailability: Bool?
        var systemPath: Connectivity?
        var current = Connectivity.unknown
        var nextID: UInt64 = 0
        var stateReaders: [UInt64: AsyncStream<Connectivity>.Continuation] = [:]
        var comebackReaders: [UInt64: AsyncStream<Void>.Continuation] = [:]
        var closed = false

        var combined: Connectivity {
            if forcedOffline { return .offline }
            if let appAvailability { return appAvailability ? .online : .offline }
            return systemPath ?? .unknown
        }
    }

    private let state = Mutex(State())
    /// Held while telling readers, so that concurrent changes reach them in the order they
    /// happened. The termination handlers never take it, unlike `state`.
    private let delivery = Mutex(())

    /// A monitor with no source yet: `.unknown`.
    init() {}

    /// The network's state now.
    var current: Connectivity { state.withLock { $0.current } }

    /// Forces `.offline` until ``enableNetwork()``: nothing is sent, refreshes pause, writes queue.
    func disableNetwork() {
        update { $0.forcedOffline = true }
    }

    /// Ends ``disableNetwork()``; waiting refreshes and the replay try at once.
    func enableNetwork() {
        update(enabling: true) { $0.forcedOffline = false }
    }

    /// Records the app's latest availability (`nil`: the app no longer says).
    func setAppAvailability(_ available: Bool?) {
        update { $0.appAvailability = available }
    }

    /// Records the system path monitor's latest state (`nil`: no monitor).
    func setSystemPath(_ connectivity: Connectivity?) {
        update { $0.systemPath = connectivity }
    }

    /// Follows the app's availability sequence until it ends, fails or the task is cancelled; the
    /// last value it gave stays in force afterwards.
    func follow<Availability: AsyncSequence>(_ availability: Availability) async
    where Availability.Element == Bool {
        do {
            for try await available in availability {
                setAppAvailability(available)
            }
        } catch {
            // A failing source says nothing more; its last value stays, as when it ends.
        }
    }

    /// A stream of states for one reader: the current state first, then each change; a slow
    /// reader gets the newest. It ends when the reader stops or the monitor closes.
    func states() -> AsyncStream<Connectivity> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Connectivity.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> UInt64? in
            guard !state.closed else { return nil }
            state.nextID += 1
            state.stateReaders[state.nextID] = continuation
            continuation.yield(state.current)
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.stateReaders.removeValue(forKey: id) }
        }
        return stream
    }

    /// A stream of "the network came back" events for one reader; none is dropped. It ends when
    /// the reader stops or the monitor closes.
    func networkCameBack() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
        let id = state.withLock { state -> UInt64? in
            guard !state.closed else { return nil }
            state.nextID += 1
            state.comebackReaders[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.comebackReaders.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every reader's stream; later streams end at once.
    func close() {
        let (stateReaders, comebackReaders) = state.withLock { state in
            state.closed = true
            defer {
                state.stateReaders = [:]
                state.comebackReaders = [:]
            }
            return (Array(state.stateReaders.values), Array(state.comebackReaders.values))
        }
        // Finish outside the lock: onTermination takes the lock.
        for reader in stateReaders { reader.finish() }
        for reader in comebackReaders { reader.finish() }
    }

    private func update(enabling: Bool = false, _ change: (inout State) -> Void) {
        delivery.withLock { _ in
            let (states, comebacks) = state.withLock { state in
                let old = state.current
                change(&state)
                let new = state.combined
                state.current = new
                let cameBack =
                    new != .offline && (old == .offline || (new == .online && old != .online) || enabling)
                return (
                    new != old ? state.stateReaders.values.map { ($0, new) } : [],
                    cameBack ? Array(state.comebackReaders.values) : []
                )
            }
            // Outside `state`: waking a reader takes its task's lock, which a thread cancelling
            // that task holds while the stream's termination handler waits for `state`.
            for (reader, new) in states { reader.yield(new) }
            for reader in comebacks { reader.yield() }
        }
    }
}
