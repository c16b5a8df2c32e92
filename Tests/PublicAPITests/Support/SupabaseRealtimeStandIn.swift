import Foundation

// supabase-swift's Realtime as the catalog's "Changes from other devices" snippets use it: the
// same names and shapes (`channel.postgresChange(AnyAction.self, schema:table:)`,
// `channel.statusChange`, the actions' `record`, `oldRecord`, `columns` and `commitTimestamp`), so
// the snippets compile here as written for the real one. A test sends what the server would.

/// supabase-swift's `AnyJSON`, the cases a record holds.
enum AnyJSON: Sendable, Hashable, Encodable {
    case null
    case bool(Bool)
    case integer(Int)
    case string(String)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

/// supabase-swift's `Column`: a column's name and type, as Realtime names them.
struct Column: Sendable, Hashable {
    var name: String
    var type: String
}

/// supabase-swift's `InsertAction`.
struct InsertAction: Sendable {
    var columns: [Column]
    var commitTimestamp: Date
    var record: [String: AnyJSON]
}

/// supabase-swift's `UpdateAction`.
struct UpdateAction: Sendable {
    var columns: [Column]
    var commitTimestamp: Date
    var record: [String: AnyJSON]
    var oldRecord: [String: AnyJSON]
}

/// supabase-swift's `DeleteAction`.
struct DeleteAction: Sendable {
    var columns: [Column]
    var commitTimestamp: Date
    var oldRecord: [String: AnyJSON]
}

/// supabase-swift's `SelectAction`, which the bridge ignores.
struct SelectAction: Sendable {
    var record: [String: AnyJSON]
}

/// supabase-swift's `AnyAction`.
enum AnyAction: Sendable {
    case insert(InsertAction)
    case update(UpdateAction)
    case delete(DeleteAction)
    case select(SelectAction)
}

/// supabase-swift's `RealtimeChannelStatus`.
enum RealtimeChannelStatus: Sendable {
    case unsubscribed, subscribing, subscribed, unsubscribing
}

/// supabase-swift's `RealtimeChannelV2`, reduced to what the bridge reads; the test plays the
/// server with ``send(_:)`` and ``set(_:)``.
final class RealtimeChannelV2: Sendable {
    private let actions = AsyncStream.makeStream(of: AnyAction.self)
    private let statuses = AsyncStream.makeStream(of: RealtimeChannelStatus.self)

    /// The channel's postgres changes of one table (one listener: the bridge's).
    func postgresChange(_: AnyAction.Type, schema: String, table: String) -> AsyncStream<AnyAction> {
        actions.stream
    }

    /// The channel's status as it changes.
    var statusChange: AsyncStream<RealtimeChannelStatus> { statuses.stream }

    /// The server sends a change.
    func send(_ action: AnyAction) {
        actions.continuation.yield(action)
    }

    /// The channel's status changes.
    func set(_ status: RealtimeChannelStatus) {
        statuses.continuation.yield(status)
    }

    /// The channel ends (the app unsubscribed and removed it).
    func end() {
        actions.continuation.finish()
        statuses.continuation.finish()
    }
}
