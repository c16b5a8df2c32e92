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

    /// Records the writes of `owners` (by id) as accepted now, with the rows the server sent back
    /// for some, and forgets the oldest past ``limit``. Runs inside a job.
    static func record(_ owners: [UUID: String?], returned: [UUID: [Row]], _ connection: SQLiteConnection)
        throws(StoreError)
    {
        guard !owners.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        for (id, owner) in owners {
            let rows = returned[id].map { JSONText.data(.array($0.map(\.json))) }
            try connection.run(
                """
                INSERT INTO accepted (id, accepted_at, rows, owner, id_prefix)
                VALUES (?1, ?2, ?3, ?4, substr(?1, 1, 8))
                """,
                .text(Store.idKey(id)),
                .real(now), rows.map(SQLiteValue.blob) ?? .null, .optional(owner))
        }
        try connection.run(
            "DELETE FROM accepted WHERE seq <= (SELECT MAX(seq) FROM accepted) - ?", .integer(Int64(limit)))
    }

    /// The accepted write whose id is `?1`, found through the index of the ids' first 8
    /// characters (the whole id compared among those that share them).
    static let lookup = """
        SELECT accepted_at, rows FROM accepted WHERE id_prefix = substr(?1, 1, 8) AND id = ?1
        ORDER BY seq DESC LIMIT 1
        """

    /// When the write `id` was accepted and the rows the server sent back, if it is among the
    /// ids kept.
    nonisolated(nonsending) package func accepted(_ id: UUID) async throws(StoreError) -> (
        at: Date, rows: [Row]
    )? {
        let found = try await store.perform(writes: false) { connection throws(StoreError) in
            try connection.query(
                Self.lookup, .text(Store.idKey(id))
            ) {
                row in (Date(timeIntervalSince1970: row.real(0)), row.isNull(1) ? nil : row.blob(1))
            }.first
        }
        guard let (at, bytes) = found else { return nil }
        let rows = bytes.flatMap { try? Row.rows(from: JSONText.parse($0)) } ?? []
        return (at, rows)
    }
}

extension Store {
    /// The ids of accepted writes.
    package var accepted: AcceptedTable { AcceptedTable(store: self) }
}
