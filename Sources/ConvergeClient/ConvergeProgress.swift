import Foundation
import OfflineEngine
import Synchronization

/// How long a healing client went without progress: a write accepted or rejected, a list
/// answered, a step of the heal done. A client that drains a long queue steadily is not
/// stalled; one that waits on a schedule or a request that never ends is.
final class ConvergeProgress: Sendable {
    private let state = Mutex<(last: ContinuousClock.Instant, longest: Duration)>((.now, .zero))

    /// Starts counting from now.
    func start() {
        state.withLock { $0 = (.now, .zero) }
    }

    /// Counting goes on from now, the time since the last progress not counted: the client
    /// waited for the test's next command (the other devices draining), not for itself.
    func resumed() {
        state.withLock { $0.last = .now }
    }

    /// Progress now.
    func progressed() {
        state.withLock { state in
            let now = ContinuousClock.now
            state.longest = max(state.longest, now - state.last)
            state.last = now
        }
    }

    /// The longest time without progress since ``start()``, in seconds.
    var longestSeconds: Double {
        let longest = state.withLock { $0.longest }
        return Double(longest.components.seconds) + Double(longest.components.attoseconds) / 1e18
    }

    /// Counts the client's progress from its events until cancelled.
    func follow(_ client: OfflineClient) async {
        do {
            for try await event in client.events {
                switch event.kind {
                case .writeAccepted, .writeRejected, .refreshChanged(.idle): progressed()
                default: continue
                }
            }
        } catch {}
    }
}
