import Foundation

/// What a table's live reads are derived from: its cached lists, the writes laid over them, and
/// whose writes those are. The engine sends a new value after every change of the table.
///
/// Everything but the queued writes is small or shared: rows are arrays the lists share, and the
/// queued writes are a ``WriteLog``, so sending facts after a write costs that write.
struct TableFacts: Sendable {
    /// The table.
    var table: TableID
    /// The table's cached lists, by canonical key.
    var lists: [String: ListEntry]
    /// The table's queued writes, every owner's, in queue order.
    var queued: WriteLog
    /// The table's replay log: writes sent that some cached list may not have seen yet.
    var replayed: [ReplayEntry]
    /// The user whose writes are laid over the lists (`nil`: nobody signed in).
    var owner: String?
    /// Changes with every change of these facts except writes appended to ``queued``; a live
    /// read's fold stands while it is the same.
    var version: Int
    /// The serial of the newest answer written anywhere when these facts were sent.
    var answers: Int
    /// When the only change since the facts sent before these is writes appended to the queue:
    /// the queued writes as they stood then (the new ones are `queued.writes(after:)` it).
    /// `nil` after any other change. A live read is woken only by appended writes that may
    /// change its rows (see `LiveReads`).
    var appendedSince: WriteLog?
    /// Whether every cached list of the table is held; a live read's first facts may hold only
    /// its own list (see `Tables.listsToLoad(_:for:)`).
    var listsComplete = false
    /// Whether the cache changed hands and the lists its live reads need are still being read
    /// from the new one: the lists held are none of the old cache's, and not yet the new one's.
    var awaitingLists = false
    /// How many queued writes are UPDATEs: with lists missing, the overlay waits for them.
    var queuedUpdates = 0
    /// The cached lists of the tables this one declares foreign keys to, by table name, as they
    /// stood when these facts were sent (the embeds of rows written on the device come from them).
    var related: [String: [CachedList]] = [:]

    /// The facts of a table nothing is known of yet.
    init(table: TableID, owner: String?) {
        self.table = table
        lists = [:]
        queued = WriteLog()
        replayed = []
        self.owner = owner
        version = 0
        answers = 0
    }

    /// The replayed writes laid for ``owner`` (theirs and owner-less ones) over a list fetched at
    /// `fetchTick`: those it has not seen, oldest first.
    func unseenReplayed(after fetchTick: Int) -> [Mutation] {
        ReplayLog.unseen(replayed.filter { $0.mutation.applies(to: owner) }, fetchTick: fetchTick).map(
            \.mutation)
    }

    /// Every cached list of the table but the one under `key`: the rows an UPDATE may move in.
    func lists(except key: String) -> [CachedList] {
        lists.filter { $0.key != key }.map(\.value.list)
    }

    /// The queued writes laid for ``owner``: theirs and owner-less ones.
    func laidWrites(_ writes: [Mutation]) -> [Mutation] {
        writes.filter { $0.applies(to: owner) }
    }

    /// The pending writes of ``owner`` to this table, oldest first.
    func pending(primaryKeys: PrimaryKeys) -> [PendingMutation] {
        OverlayWrites.applying(queued.writes, ownerID: owner)
            .map { PendingMutation($0, primaryKeys: primaryKeys) }
    }
}
