import Foundation

/// The queue in order, with each write's life, looked up by id in constant time.
///
/// Writes join at the end and mostly leave at the front (replay sends the oldest first): both
/// cost one write. A write leaving from the middle (a rejected write behind others of another
/// user) costs the queue's length.
struct WriteQueue: Sendable {
    private var order: [UUID] = []
    /// Positions of `order` before this are gone.
    private var head = 0
    /// Each write with its place in the queue (the order in which writes joined): one map, so
    /// that a write joining costs one insertion.
    private var entries: [UUID: Slot] = [:]
    private var joined = 0
    /// Queued writes per owner (`nil`: owner-less writes), kept as writes join and leave.
    private(set) var counts = OwnerCounts()
    /// ``counts`` of the writes the store holds (``WriteLife/isStored``): what the app is shown,
    /// so that a write whose append is under way, and may fail, is never counted.
    private(set) var storedCounts = OwnerCounts()
    /// The oldest stored write a viewer sees, as last found (`id` `nil`: none), kept until it
    /// leaves, the viewer changes, or an owner changes: the queue's counts are published on every
    /// enqueue, and a scan each time would cost the writes of other users ahead of it.
    private var oldestSeen: (viewer: String?, id: UUID?)?

    /// How many writes are queued.
    var count: Int { entries.count }

    /// Every queued write in order.
    var all: [QueueEntry] {
        order[head...].compactMap { entries[$0]?.entry }
    }

    /// When the oldest stored write `owner` sees (theirs or owner-less) was made: the first such
    /// entry in queue order, found again only after the one found last left.
    mutating func oldest(visibleTo owner: String?) -> Date? {
        if let seen = oldestSeen, seen.viewer == owner {
            guard let id = seen.id else { return nil }
            if let slot = entries[id] { return slot.entry.mutation.createdAt }
        }
        let found = order[head...].first { id in
            entries[id].map { $0.entry.life.isStored && $0.entry.mutation.applies(to: owner) } == true
        }
        oldestSeen = (owner, found)
        return found.flatMap { entries[$0]?.entry.mutation.createdAt }
    }

    /// The write `id`, if queued.
    subscript(id: UUID) -> QueueEntry? {
        entries[id]?.entry
    }

    /// Adds a write at the end.
    mutating func append(_ entry: QueueEntry) {
        let id = entry.mutation.id
        order.append(id)
        entries[id] = Slot(entry: entry, place: joined)
        joined += 1
        counts.add(1, to: entry.mutation.ownerID)
        if entry.life.isStored { stored(id, entry, place: joined - 1) }
    }

    /// Changes the write `id` in place; `nil` when it is not queued.
    mutating func update<T>(_ id: UUID, _ change: (inout QueueEntry) -> T) -> T? {
        guard let index = entries.index(forKey: id) else { return nil }
        let (owner, wasStored) = (
            entries.values[index].entry.mutation.ownerID, entries.values[index].entry.life.isStored
        )
        // Changed in place: no copy of the write is made and put back.
        let result = change(&entries.values[index].entry)
        let entry = entries.values[index].entry
        if entry.mutation.ownerID != owner {
            counts.add(-1, to: owner)
            counts.add(1, to: entry.mutation.ownerID)
            if wasStored { storedCounts.add(-1, to: owner) }
            if entry.life.isStored { storedCounts.add(1, to: entry.mutation.ownerID) }
            oldestSeen = nil
        } else if wasStored != entry.life.isStored {
            if wasStored {
                storedCounts.add(-1, to: owner)
                if oldestSeen?.id == id { oldestSeen = nil }
            } else {
                stored(id, entry, place: entries.values[index].place)
            }
        }
        return result
    }

    /// Counts the write `id` (`entry`, joined at `place`), which the store now holds, among the
    /// stored writes.
    private mutating func stored(_ id: UUID, _ entry: QueueEntry, place: Int) {
        storedCounts.add(1, to: entry.mutation.ownerID)
        // It is the oldest the viewer sees when they saw none, or only later ones (appends may
        // be seen stored out of order).
        guard let seen = oldestSeen, entry.mutation.applies(to: seen.viewer) else { return }
        if let seenID = seen.id, let seenPlace = entries[seenID]?.place, seenPlace < place {
            return
        }
        oldestSeen = (seen.viewer, id)
    }

    /// Takes the write `id` out; returns it.
    @discardableResult
    mutating func remove(_ id: UUID) -> QueueEntry? {
        guard let entry = entries.removeValue(forKey: id)?.entry else { return nil }
        counts.add(-1, to: entry.mutation.ownerID)
        if entry.life.isStored { storedCounts.add(-1, to: entry.mutation.ownerID) }
        if oldestSeen?.id == id { oldestSeen = nil }
        if order[head] == id {
            head += 1
            // Drop what is behind the head once it is most of the array.
            if head > order.count / 2 {
                order.removeFirst(head)
                head = 0
            }
        } else if let index = order[head...].firstIndex(of: id) {
            order.remove(at: index)
        }
        return entry
    }

    /// The oldest writes `user`'s session may send, if the first is ready: it and the writes
    /// after it (skipping other users') of the same owner, ready to send, for which `joins` holds,
    /// up to `limit` writes.
    func nextRun(as user: String?, limit: Int, joins: (QueueEntry) -> Bool) -> [QueueEntry] {
        var run: [QueueEntry] = []
        for id in order[head...] {
            guard let entry = entries[id]?.entry, entry.mutation.applies(to: user) else { continue }
            if let first = run.first {
                guard entry.life.isReadyToSend, entry.mutation.ownerID == first.mutation.ownerID, joins(entry)
                else { break }
            } else if !entry.life.isReadyToSend {
                break
            }
            run.append(entry)
            if run.count == limit { break }
        }
        return run
    }

    /// Whether the write `id` is queued, in flight, and owned by `owner`.
    func isInFlight(_ id: UUID, ownedBy owner: String?) -> Bool {
        guard let entry = entries[id]?.entry else { return false }
        return entry.mutation.ownerID == owner && entry.life.phase == .inFlight
    }

    /// Gives the owner-less writes to `owner`, as the store did; returns their tables.
    mutating func claimOwnerless(for owner: String) -> Set<TableID> {
        var tables = Set<TableID>()
        for id in order[head...] where entries[id]?.entry.mutation.ownerID == nil {
            update(id) { $0.mutation.ownerID = owner }
            if let slot = entries[id] { tables.insert(TableID(slot.entry.mutation)) }
        }
        return tables
    }

    /// Takes every write of `user` out of the queue (their data was cleared); returns them.
    mutating func removeAll(ownedBy user: String) -> [Mutation] {
        let owned = all.filter { $0.mutation.ownerID == user }
        return owned.compactMap { remove($0.mutation.id)?.mutation }
    }

    /// Empties the queue.
    mutating func removeAll() {
        self = WriteQueue()
    }
}

/// A queued write and its place in the order writes joined.
private struct Slot {
    var entry: QueueEntry
    let place: Int
}

/// One write in the queue, with where its life stands.
struct QueueEntry: Sendable {
    var mutation: Mutation
    var life: WriteLife

    init(mutation: Mutation, life: WriteLife) {
        self.mutation = mutation
        self.life = life
    }

    /// A write joining the queue now (`interrupted`: an earlier send may have been applied).
    init(_ mutation: Mutation, interrupted: Bool) {
        self.init(mutation: mutation, life: WriteLife(attempts: mutation.attempts, interrupted: interrupted))
    }
}
