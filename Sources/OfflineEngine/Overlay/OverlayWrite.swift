/// A write laid over cached lists: a queued write of the user, or a replayed write some cached
/// lists have not seen yet.
struct OverlayWrite: Sendable, Hashable {
    /// The write.
    var mutation: Mutation
    /// Whether the write still waits in the queue (it counts for `hasPendingMutations`); `false`
    /// for a replayed write, which the server already holds.
    var isQueued: Bool

    /// A write to lay over cached lists.
    init(_ mutation: Mutation, isQueued: Bool) {
        self.mutation = mutation
        self.isQueued = isQueued
    }
}

/// Chooses which writes a read shows on top of its cached rows.
enum OverlayWrites {
    /// The queued writes the current user sees laid over lists: theirs and owner-less ones, in
    /// queue order (oldest first); never another user's.
    ///
    /// - Parameters:
    ///   - queue: every write in the mutation queue, oldest first.
    ///   - ownerID: the signed-in user's id, or `nil` when nobody is signed in (then only
    ///     owner-less writes apply).
    static func applying(_ queue: [Mutation], ownerID: String?) -> [Mutation] {
        queue.filter { $0.applies(to: ownerID) }
    }

    /// The writes laid over a list fetched at `fetchTick`: the replayed writes it has not seen
    /// (oldest first), then the queued writes that apply.
    ///
    /// Replayed writes come first: the queue is sent oldest first per owner, so a replayed write
    /// is older than every write of its owner still queued.
    static func ordered(
        replayLog: [ReplayEntry], fetchTick: Int, queue: [Mutation], ownerID: String?
    ) -> [OverlayWrite] {
        ReplayLog.unseen(replayLog, fetchTick: fetchTick).map { OverlayWrite($0.mutation, isQueued: false) }
            + applying(queue, ownerID: ownerID).map { OverlayWrite($0, isQueued: true) }
    }
}

extension Mutation {
    /// Whether this write is the user's to see and replay: theirs, or made with nobody signed in.
    /// Another user's write never applies.
    func applies(to user: String?) -> Bool {
        ownerID == nil || ownerID == user
    }
}
