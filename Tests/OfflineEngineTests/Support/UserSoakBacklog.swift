import Foundation
import OfflineEngineTesting
import Synchronization

/// How many writes of the signed-in user the client says wait in its queue, for a soak's
/// writers to pace themselves by: each waits until the backlog is down to a limit before it
/// writes, as a person would not type faster than the app can send. Without it, eight writers
/// outrun the replay (which sends one write at a time) and soon every write is queued.
///
/// While the network is down the gate is open (writes queue, as they would), and a wait gives
/// up after a while (a replay that never drains is for the soak to report, not to hang on).
final class UserSoakBacklog: Sendable {
    /// The latest count and whether the gate is open.
    private struct Backlog: Sendable {
        var count = 0
        var open = false

        func allows(_ limit: Int) -> Bool { open || count <= limit }
    }

    private let backlog = WaitableState(Backlog())
    private let timeoutCount = Mutex(0)

    /// How many waits gave up.
    var timeouts: Int { timeoutCount.withLock { $0 } }

    /// The client's latest count.
    func report(_ count: Int) {
        backlog.update { $0.count = count }
    }

    /// Opens the gate (the network is down) or closes it again.
    func setOpen(_ open: Bool) {
        backlog.update { $0.open = open }
    }

    /// Waits until at most `limit` writes wait (or the gate is open), giving up after
    /// `seconds` of real time.
    func wait(atMost limit: Int, within seconds: Double) async {
        guard !backlog.value.allows(limit) else { return }
        let backlog = backlog
        // The give-up is the soak's pacing, not a guard against a hang: real seconds, unscaled
        // by `realTimeScale`, as the writers' script says.
        let reached: Backlog? = try? await withTimeout(seconds / realTimeScale) {
            await backlog.wait { $0.allows(limit) }
        }
        if reached == nil { timeoutCount.withLock { $0 += 1 } }
    }
}
