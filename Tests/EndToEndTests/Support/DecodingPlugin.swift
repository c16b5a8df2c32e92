import OfflineEngine
import PostgresGateway

/// The logical decoding output plugin a replication slot turns the server's log into text
/// with: `wal2json` where the server has it (what Supabase Realtime reads; Debian's
/// `postgresql-15-wal2json`), otherwise `test_decoding`, which ships with PostgreSQL itself, so
/// the follow tests need nothing installed by hand.
enum DecodingPlugin: String, Sendable {
    case wal2json
    case testDecoding = "test_decoding"

    /// Creates the slot `name` with `wal2json` if the server can load it, else with
    /// `test_decoding`; returns the plugin used.
    static func createSlot(_ name: String, on connection: PostgresConnection) throws -> DecodingPlugin {
        let create = "SELECT pg_create_logical_replication_slot($1, $2)"
        // Not installed (`could not access file "wal2json"`): the plugin that ships.
        if (try? connection.execute(create, [name, DecodingPlugin.wal2json.rawValue])) != nil {
            return .wal2json
        }
        try connection.execute(create, [name, DecodingPlugin.testDecoding.rawValue])
        return .testDecoding
    }

    /// The options `pg_logical_slot_get_changes` reads the slot with, as SQL literals.
    var options: String {
        switch self {
        case .wal2json: Wal2JsonChange.options
        case .testDecoding: TestDecodingChange.options
        }
    }

    /// The row changes among the lines one read of the slot returned, in commit order.
    func changes(from lines: [String]) -> [RowChange] {
        switch self {
        case .wal2json: lines.compactMap(Wal2JsonChange.change(from:))
        case .testDecoding: TestDecodingChange.changes(from: lines)
        }
    }
}
