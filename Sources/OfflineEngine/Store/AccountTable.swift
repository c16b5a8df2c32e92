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
        var data: Data?
        if let session {
            do {
                data = try JSONEncoder().encode(session)
            } catch {
                throw .failed(code: 1, detail: "the session could not be encoded")
            }
        }
        try await setMeta("session", data)
    }

    nonisolated(nonsending) private func setMeta(_ key: String, _ value: Data?) async throws(StoreError) {
        try await store.perform(writes: true) { connection throws(StoreError) in
            if let value {
                try connection.run(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", .text(key), .blob(value))
            } else {
                try connection.run("DELETE FROM meta WHERE key = ?", .text(key))
            }
        }
    }

    private static func meta(_ key: String, _ connection: SQLiteConnection) throws(StoreError) -> Data? {
        try connection.query("SELECT value FROM meta WHERE key = ?", .text(key)) { row in row.blob(0) }.first
    }
}
