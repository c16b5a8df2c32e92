import Foundation
import OfflineEngine
import PostgresGateway
import Synchronization

/// The row changes PostgreSQL commits in one database, read from a logical replication slot as
/// Supabase Realtime reads them: the end-to-end tests' change feed comes from the server's own
/// write-ahead log, never from rows a test hands in.
///
/// The slot uses `test_decoding`, which ships with PostgreSQL (Realtime uses `wal2json`, which
/// is a separate package and not needed here); its lines are read by ``TestDecodingChange``. The
/// server must run with `wal_level = logical` (``PostgresServer`` does), and the tables need
/// `REPLICA IDENTITY FULL` for an update or delete to carry the old row, as Realtime asks.
///
/// The slot is read with `pg_logical_slot_get_changes` every `interval` on a thread of its own
/// (a blocking libpq call would hold a cooperative thread); each read is one batch, an empty one
/// meaning the server had nothing new.
final class ReplicationSlotFeed: Sendable {
    private let connection: PostgresConnection
    private let slot: String
    private let running = Mutex(true)

    /// Makes the slot: every change committed from now on is read.
    init(database: PostgresDatabase) throws {
        connection = try database.connect()
        slot = "feed_" + UUID().uuidString.prefix(8).lowercased()
        try connection.execute("SELECT pg_create_logical_replication_slot($1, 'test_decoding')", [slot])
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

    /// The changes committed since the last read, in commit order, each with its commit time.
    private func read() throws -> [RowChange] {
        let lines = try connection.execute(
            """
            SELECT data FROM pg_logical_slot_get_changes($1, NULL, NULL,
                'include-xids', '0', 'include-timestamp', '1', 'skip-empty-xacts', '1')
            """, [slot]
        ).compactMap { $0.first ?? nil }
        var changes: [RowChange] = []
        var transaction: [RowChange] = []
        for line in lines {
            if line.hasPrefix("BEGIN") {
                transaction = []
            } else if line.hasPrefix("COMMIT") {
                let committedAt = TestDecodingChange.commitTime(from: line)
                changes += transaction.map { change in
                    var change = change
                    change.commitTimestamp = committedAt
                    return change
                }
            } else if let change = TestDecodingChange.change(from: line, committedAt: nil) {
                transaction.append(change)
            }
        }
        return changes
    }
}
