import Foundation
import OfflineEngine
import PostgresGateway
import Synchronization

/// The row changes PostgreSQL commits in one database, read from a logical replication slot as
/// Supabase Realtime reads them: the end-to-end tests' change feed comes from the server's own
/// write-ahead log, never from rows a test hands in.
///
/// The slot decodes with `wal2json` where the server has it (what Realtime uses; a separate
/// package), otherwise with `test_decoding`, which ships with PostgreSQL (``DecodingPlugin``). The
/// server must run with `wal_level = logical` (``PostgresServer`` does), and the tables need
/// `REPLICA IDENTITY FULL` for an update or delete to carry the old row, as Realtime asks.
///
/// The slot is read with `pg_logical_slot_get_changes` every `interval` on a thread of its own
/// (a blocking libpq call would hold a cooperative thread); each read is one batch, an empty one
/// meaning the server had nothing new.
final class ReplicationSlotFeed: Sendable {
    private let connection: PostgresConnection
    private let slot: String
    /// The output plugin the slot decodes with.
    let plugin: DecodingPlugin
    private let running = Mutex(true)

    /// Makes the slot: every change committed from now on is read.
    init(database: PostgresDatabase) throws {
        connection = try database.connect()
        slot = "feed_" + UUID().uuidString.prefix(8).lowercased()
        plugin = try DecodingPlugin.createSlot(slot, on: connection)
    }

    /// The slot's changes, one batch per read of the slot, until ``stop()`` (or until the
    /// reader stops), when the slot is dropped.
    func batches(every interval: Duration) -> AsyncStream<[RowChange]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [RowChange].self)
        continuation.onTermination = { [self] _ in stop() }
        let microseconds = useconds_t(interval / .microseconds(1))
        Thread.detachNewThread { [self] in
            while running.withLock({ $0 }) {
                do {
                    continuation.yield(try read())
                } catch {
                    break
                }
                usleep(microseconds)
            }
            _ = try? connection.execute("SELECT pg_drop_replication_slot($1)", [slot])
            continuation.finish()
        }
        return stream
    }

    /// The feed as an app's bridge from its realtime client sends it: `subscribed` (the slot
    /// exists, so nothing committed from now on is missed), then each change.
    func events(every interval: Duration) -> AsyncStream<ChangeFeedEvent> {
        let batches = batches(every: interval)
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeFeedEvent.self)
        continuation.yield(.subscribed)
        let forwarding = Task {
            for await batch in batches {
                for change in batch { continuation.yield(.change(change)) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return stream
    }

    /// Stops reading: the batches end and the slot is dropped.
    func stop() {
        running.withLock { $0 = false }
    }

    /// The changes committed since the last read, in commit order.
    private func read() throws -> [RowChange] {
        let lines = try connection.execute(
            "SELECT data FROM pg_logical_slot_get_changes($1, NULL, NULL, \(plugin.options))", [slot]
        ).compactMap { $0.first ?? nil }
        return plugin.changes(from: lines)
    }
}
