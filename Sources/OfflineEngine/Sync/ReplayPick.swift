/// What a replay pass may send next (see `ReplayEvents.nextReplay(in:)`).
enum ReplayPick: Sendable {
    /// These writes, in order, as the run's ticket says.
    case run(ReplayRun)
    /// Nothing of the signed-in user's is ready to send.
    case drained
    /// Nothing may be sent now (offline, the session restoring, or closed).
    case blocked
}
