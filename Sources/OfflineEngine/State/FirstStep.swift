/// What becomes of a new offline-first write (see `ImmediateSendEvents.firstStep(for:in:)`).
enum FirstStep: Sendable {
    /// Queued (offline, the session restoring, or an earlier write of its owner waits).
    case queued(PendingMutation)
    /// To be sent now; `ImmediateSends.end(for:)` must follow.
    case send
}
