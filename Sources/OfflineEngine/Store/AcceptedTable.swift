import Foundation

/// The ids of writes the server accepted, newest ``limit`` kept, so that
/// `OfflineClient.outcome(of:)` can tell an accepted write after a relaunch.
///
/// A view of an open `Store` (`store.accepted`); written in the transaction that moves the writes
/// out of the queue, so a write is never neither queued nor accepted.
package struct AcceptedTable: Sendable {
    let store: Store

    /// How many accepted ids are kept.
    static let limit = 10_000

    /// Records `ids` as accepted now, and forgets the oldest past ``limit``. Runs inside a job.
    static func record(_ ids: Set<UUID>, _ connection: SQLiteConnection) throws(StoreError) {
        guard !ids.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        for id in ids {
            try connection.run(
                "INSERT OR REPLACE INTO accepted (id, accepted_at) VALUES (?, ?)", .text(Store.idKey(id)),
                .real(now))
        }
        try connection.run(
            "DELETE FROM accepted WHERE seq <= (SELECT MAX(seq) FROM accepted) - ?", .integer(Int64(limit)))
    }

    /// When the write `id` was accepted, if it is among the ids kept.
    nonisolated(nonsending) package func acceptedAt(_ id: UUID) async throws(StoreError) -> Date? {
        try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query("SELECT accepted_at FROM accepted WHERE id = ?", .text(Store.idKey(id))) {
                row in
                Date(timeIntervalSince1970: row.real(0))
            }.first
        }
    }
}

extension Store {
    /// The ids of accepted writes.
    package var accepted: AcceptedTable { AcceptedTable(store: self) }
}
