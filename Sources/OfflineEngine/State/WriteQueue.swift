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
    private var entries: [UUID: QueueEntry] = [:]

    /// How many writes are queued.
    var count: Int { entries.count }

    /// Every queued write in order.
    var all: [QueueEntry] {
        order[head...].compactMap { entries[$0] }
    }

    /// The write `id`, if queued.
    subscript(id: UUID) -> QueueEntry? {
        entries[id]
    }

    /// Adds a write at the end.
    mutating func append(_ entry: QueueEntry) {
        order.append(entry.mutation.id)
        entries[entry.mutation.id] = entry
    }

    /// Changes the write `id` in place; `nil` when it is not queued.
    mutating func update<T>(_ id: UUID, _ change: (inout QueueEntry) -> T) -> T? {
        guard var entry = entries[id] else { return nil }
        let result = change(&entry)
        entries[id] = entry
        return result
    }

    /// Takes the write `id` out; returns it.
    @discardableResult
    mutating func remove(_ id: UUID) -> QueueEntry? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
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

    /// The first write in order that satisfies `predicate`.
    func first(where predicate: (QueueEntry) -> Bool) -> QueueEntry? {
        for id in order[head...] {
            if let entry = entries[id], predicate(entry) { return entry }
        }
        return nil
    }

    /// Empties the queue.
    mutating func removeAll() {
        self = WriteQueue()
    }
}

/// One write in the queue, with where its life stands.
struct QueueEntry: Sendable {
    var mutation: Mutation
    var life: WriteLife
}
