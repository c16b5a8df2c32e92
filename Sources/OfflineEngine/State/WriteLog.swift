import Foundation
import Synchronization

/// A table's queued writes in queue order, as versions that share one buffer.
///
/// The engine keeps the newest version and hands earlier ones to readers as facts. Appending to
/// the newest version writes into the shared buffer in place, so queueing a write costs that
/// write, not the queue: older versions keep seeing only their own window of the buffer. A live
/// read that laid an earlier version asks for the writes after it (``writes(after:)``).
/// Removing the oldest write moves the window; any other change makes a new buffer.
struct WriteLog: Sendable {
    private final class Buffer: Sendable {
        let writes: Mutex<[Mutation]>
        init(_ writes: [Mutation]) { self.writes = Mutex(writes) }
    }

    private let buffer: Buffer
    private let start: Int
    private let end: Int

    /// An empty log.
    init() {
        self.init([])
    }

    /// A log of `writes`, oldest first, in a buffer of its own.
    init(_ writes: [Mutation]) {
        self.init(buffer: Buffer(writes), start: 0, end: writes.count)
    }

    private init(buffer: Buffer, start: Int, end: Int) {
        self.buffer = buffer
        self.start = start
        self.end = end
    }

    /// How many writes this version holds.
    var count: Int { end - start }

    /// The writes of this version, oldest first.
    var writes: [Mutation] {
        buffer.writes.withLock { Array($0[start..<end]) }
    }

    /// Whether this version is `earlier` with writes appended: everything laid of `earlier`
    /// still stands, and only ``writes(after:)`` are new.
    func extends(_ earlier: WriteLog) -> Bool {
        buffer === earlier.buffer && start == earlier.start && end >= earlier.end
    }

    /// The writes appended since `earlier`, which this version must extend.
    func writes(after earlier: WriteLog) -> [Mutation] {
        precondition(extends(earlier), "WriteLog: writes(after:) of a version it does not extend")
        return buffer.writes.withLock { Array($0[earlier.end..<end]) }
    }

    /// This log with `write` at its end; in place when this is the newest version.
    func appending(_ write: Mutation) -> WriteLog {
        let inPlace = buffer.writes.withLock { writes in
            guard writes.count == end else { return false }
            writes.append(write)
            return true
        }
        if inPlace { return WriteLog(buffer: buffer, start: start, end: end + 1) }
        return WriteLog(writes + [write])
    }

    /// This log without the write `id` (unchanged when it holds none).
    func removing(_ id: UUID) -> WriteLog {
        // The oldest leaving (what replay does) only moves the window, unless most of the
        // buffer is then behind it: found without copying the log.
        let oldest = buffer.writes.withLock { start < end ? $0[start].id : nil }
        if oldest == id, start < count {
            return WriteLog(buffer: buffer, start: start + 1, end: end)
        }
        let writes = writes
        guard let index = writes.firstIndex(where: { $0.id == id }) else { return self }
        var kept = writes
        kept.remove(at: index)
        return WriteLog(kept)
    }

    /// This log with every write changed by `change`, in a buffer of its own.
    func map(_ change: (Mutation) -> Mutation) -> WriteLog {
        WriteLog(writes.map(change))
    }
}
