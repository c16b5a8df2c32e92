import Foundation

@testable import OfflineEngine

/// What tests read of a client beyond its public streams: its store, and the state's queue,
/// replay log, cached lists and live reads, as the state holds them now.
extension OfflineClient {
    /// The client's store.
    var store: Store { engine.state.store }

    /// The ids of the queued writes, in queue order.
    var queuedIDs: [UUID] {
        get async { await engine.state.queue.all.map(\.mutation.id) }
    }

    /// Whether each queued write's append has committed, in queue order.
    var queuedAreDurable: [Bool] {
        get async { await engine.state.queue.all.map { $0.life.phase != .handedToStore } }
    }

    /// Every rejected write, every owner's.
    var allRejected: [RejectedMutation] { engine.state.rejected.facts.value.all }

    /// The replay log of `table` (no schema: `public`).
    func replayLog(of table: String) async -> [ReplayEntry] {
        await engine.state.tables[TableID(schema: nil, table: table)]?.replayed ?? []
    }

    /// Every replayed write held, over all tables.
    var replayLogCount: Int {
        get async { await engine.state.tables.all.map(\.replayed.count).reduce(0, +) }
    }

    /// Every cached list held, over all tables.
    var cachedLists: [ListEntry] {
        get async { await engine.state.tables.all.flatMap(\.lists.values) }
    }

    /// How many readers hold the live read of `key`.
    func liveReaders(of key: String) -> Int {
        engine.liveReads.holders(of: key)
    }

    /// Whether a write waits behind one of its owner's that is being sent at once.
    var writeWaitsBehindImmediateSend: Bool {
        engine.state.immediateSends.waiting > 0
    }

    /// Whether `close()` has begun.
    var isClosing: Bool { engine.calls.isClosed }
}
