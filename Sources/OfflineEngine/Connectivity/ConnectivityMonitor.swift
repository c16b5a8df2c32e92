import Streams
import Synchronization

/// Combines what the engine knows about the network into one ``Connectivity`` that every part
/// reads, and tells refreshes and the replay when the network comes back.
///
/// Sources, strongest first: `disableNetwork()` forces `.offline` until `enableNetwork()`; then
/// the app's availability sequence (true/false), when it has said anything; then the system path
/// monitor (Apple platforms); otherwise `.unknown`, treated as up. The app's sequence outranks
/// the system monitor because it can know more (a captive portal, the backend's own reachability).
///
/// Readers, through the Streams holders: ``current`` synchronously; ``states()`` for each reader
/// the current state first, then each change, the newest for a slow reader (a `StateBroadcast`);
/// ``networkCameBack()`` for each reader a wake whenever the state leaves `.offline`, turns
/// `.online`, or `enableNetwork()` is called, provided the state is not `.offline` after it (a
/// `Signal`: a reader that has not yet woken for one comeback wakes once for several).
final class ConnectivityMonitor: Sendable {
    /// What each source says.
    private struct Sources {
        var forcedOffline = false
        var appAvailability: Bool?
        var systemPath: Connectivity?

        var combined: Connectivity {
            if forcedOffline { return .offline }
            if let appAvailability { return appAvailability ? .online : .offline }
            return systemPath ?? .unknown
        }
    }

    /// Held while a change is worked out and published, so changes reach readers in the order
    /// they happened. The holders' readers never take it.
    private let sources = Mutex(Sources())
    private let state = StateBroadcast<Connectivity, Never>(.unknown)
    private let comeback = Signal()

    /// A monitor with no source yet: `.unknown`.
    init() {}

    /// The network's state now.
    var current: Connectivity { state.value }

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

    /// The states for one reader: the current state first, then each change; a slow reader gets
    /// the newest. It ends when the monitor closes.
    func states() -> StateBroadcast<Connectivity, Never>.Values {
        state.values()
    }

    /// A wake for one reader each time the network comes back (once for several it has not yet
    /// woken for). It ends when the reader stops or the monitor closes.
    func networkCameBack() -> AsyncStream<Void> {
        comeback.stream()
    }

    /// Ends every reader; later readers end at once.
    func close() {
        state.finish()
        comeback.finish()
    }

    private func update(enabling: Bool = false, _ change: (inout Sources) -> Void) {
        sources.withLock { sources in
            let old = sources.combined
            change(&sources)
            let new = sources.combined
            if new != old { state.send(new) }
            if new != .offline && (old == .offline || (new == .online && old != .online) || enabling) {
                comeback.fire()
            }
        }
    }
}
