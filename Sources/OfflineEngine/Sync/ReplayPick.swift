/// What a replay pass may send next (see `EngineState.nextReplay()`).
enum ReplayPick: Sendable {
    /// This write, as this ticket says; its life as it stood when picked.
    case write(Mutation, WriteLife, SendTicket)
    /// Nothing of the signed-in user's is ready to send.
    case drained
    /// Nothing may be sent now (offline, the session restoring, or closed).
    case blocked
}
