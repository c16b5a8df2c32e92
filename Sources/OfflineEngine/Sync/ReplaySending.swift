/// What the requests of one replay run share: the run (its writes and ticket), what collects
/// the writes the server accepted, and, when tables overlap, the order its batches settle in.
struct ReplaySending: Sendable {
    let run: ReplayRun
    let accepted: AcceptedWrites
    /// The run's batches as they settle, when more than one table's requests may be in flight.
    var order: ReplayOrder?
    /// The place in the run of the batch being sent (its halves keep it).
    var index = 0

    /// Whether an earlier batch of the run is still unsettled: a request that leaves now
    /// overtakes it.
    var overtakes: Bool {
        guard let order else { return false }
        return !order.allSettled(before: index)
    }
}
