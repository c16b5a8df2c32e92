import Foundation

/// Whose cache this is and the stored session.
///
/// A view of an open `Store` (`store.account`); its calls join the store's writer in call order.
package struct AccountTable: Sendable {
    let store: Store

    /// The user the cache belongs to, or `nil` when it belongs to nobody signed in.
    nonisolated(nonsending) package func owner() async throws(StoreError) -> String? {
        try await store.perform(writes: false) { connection throws(StoreError) in
            try Self.meta("owner", connection).flatMap { String(data: $0, encoding: .utf8) }
        }
    }

    /// Hands the cache to a user (or to nobody).
    nonisolated(nonsending) package func setOwner(_ owner: String?) async throws(StoreError) {
        try await setMeta("owner", owner.map { Data($0.utf8) })
    }

    /// The session stored at the last sign-in, or `nil` when signed out.
    nonisolated(nonsending) package func session() async throws(StoreError) -> AuthSession? {
        let data = try await store.perform(writes: false) { connection throws(StoreError) in
            try Self.meta("session", connection)
        }
        guard let data else { return nil }
        do {
            return try JSONDecoder().decode(AuthSession.self, from: data)
        } catch {
            throw .corrupt
        }
    }

    /// Stores the session so the user stays signed in at the next launch (`nil` forgets it).
    nonisolated(nonsending) package func setSession(_ session: AuthSession?) async throws(StoreError) {
        try await setMeta("session", try Self.encoded(session))
    }

    /// Writes what a sign-in, a sign-out or a restore changes, in one commit; returns how many
    /// owner-less queued writes became the user's.
    @discardableResult
    nonisolated(nonsending) package func record(_ change: AccountChange) async throws(StoreError) -> Int {
        let session = try change.session.map { session throws(StoreError) in try Self.encoded(session) }
        return try await store.perform(writes: true, atomic: true) { [store] connection throws(StoreError) in
            if let owner = change.owner {
                if let handOver = owner.handOver {
                    _ = try ListTable.handOver(from: handOver.from, to: handOver.to, store: store, connection)
                }
                try Self.setMeta("owner", owner.user.map { Data($0.utf8) }, connection)
            }
            if let session { try Self.setMeta("session", session, connection) }
            return try change.claimingFor.map { user throws(StoreError) in
                try QueueTable.claimUnownedWrites(for: user, connection)
            } ?? 0
        }
    }

    private static func encoded(_ session: AuthSession?) throws(StoreError) -> Data? {
        guard let session else { return nil }
        do {
            return try JSONEncoder().encode(session)
        } catch {
            throw .failed(code: 1, detail: "the session could not be encoded")
        }
    }

    nonisolated(nonsending) private func setMeta(_ key: String, _ value: Data?) async throws(StoreError) {
        try await store.perform(writes: true) { connection throws(StoreError) in
            try Self.setMeta(key, value, connection)
        }
    }

    private static func setMeta(_ key: String, _ value: Data?, _ connection: SQLiteConnection)
        throws(StoreError)
    {
        if let value {
            try connection.run(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", .text(key), .blob(value))
        } else {
            try connection.run("DELETE FROM meta WHERE key = ?", .text(key))
        }
    }

    private static func meta(_ key: String, _ connection: SQLiteConnection) throws(StoreError) -> Data? {
        try connection.query("SELECT value FROM meta WHERE key = ?", .text(key)) { row in row.blob(0) }.first
    }
}
