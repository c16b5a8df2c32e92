import Streams

/// Which followed tables' change feeds are not subscribed now (from the start of following
/// until "subscribed", and from "disconnected" until the next): their lists may miss changes
/// until then. Counted per table, so two feeds of one table each count.
final class FeedConnections: Sendable {
    private let down = StateBroadcast<[TableID: Int], Never>([:])

    /// The tables with a feed down, as ``SyncStatus/disconnectedFeeds`` names them.
    func values() -> some AsyncSequence<Set<String>, Never> & Sendable {
        down.values().mapSync { Set($0.keys.map(Self.name)) }
    }

    /// A feed of `tables` went down (or started, not yet subscribed).
    func wentDown(_ tables: [TableID]) {
        down.update { counts in
            for table in tables { counts[table, default: 0] += 1 }
        }
    }

    /// A feed of `tables` came up (subscribed), or stopped being followed.
    func cameUp(_ tables: [TableID]) {
        down.update { counts in
            for table in tables {
                let left = (counts[table] ?? 0) - 1
                counts[table] = left > 0 ? left : nil
            }
        }
    }

    /// Ends the stream (the client closed).
    func finish() {
        down.finish()
    }

    /// A table as the status names it: `schema.table` outside `public`.
    static func name(_ table: TableID) -> String {
        table.schema.map { "\($0).\(table.table)" } ?? table.table
    }
}
