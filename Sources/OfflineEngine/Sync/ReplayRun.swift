/// Queued writes a replay pass sends one after another under one ticket: consecutive writes
/// (skipping other users') of one owner, at most ``limit``.
///
/// Their attempts are committed together before the first request leaves, and their settling
/// is committed together as answers come in, so a run costs a few store commits, not two per
/// write. Only writes that sending again cannot apply twice share a run: if the app dies
/// mid-run, the ones not yet sent are marked in flight and will be sent again safely. A write
/// a resend could apply twice (a keyless insert) is a run of its own.
struct ReplayRun: Sendable {
    /// One write of the run, with its life as it stood when picked.
    struct Write: Sendable {
        let mutation: Mutation
        let life: WriteLife
    }

    /// How many writes a run takes at most.
    static let limit = 256

    /// What every write of the run is sent as.
    let ticket: SendTicket
    /// The writes, in queue order.
    let writes: [Write]
}
