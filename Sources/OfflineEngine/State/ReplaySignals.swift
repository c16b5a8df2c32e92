import Streams

/// What wakes the replay loop and waiting refreshes: a write joining the queue, and the session
/// settling (restored, signed in or out, cleared).
struct ReplaySignals: Sendable {
    /// Fires when a write joins the queue (and when the session settles).
    let work = Signal()
    /// Fires when the session settles; cuts a wait on the retry schedule short.
    let urgent = Signal()
    /// Fires when the session settles; refreshes waiting for a session ask again.
    let sessionSettled = Signal()

    /// The session settled: everything waiting on it may go on.
    func sessionChanged() {
        sessionSettled.fire()
        work.fire()
        urgent.fire()
    }

    /// Ends every wait.
    func finish() {
        sessionSettled.finish()
        work.finish()
        urgent.finish()
    }
}
