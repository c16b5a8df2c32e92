import Foundation
import OfflineEngine
import Streams

// The catalog's "Changes from other devices" snippets, as written there.

/// "Bridge Realtime's changes": a channel's postgres changes of one table and its status, as the
/// client's change feed.
func changeFeed(of channel: RealtimeChannelV2, table: String) -> AsyncMergeSequence<ChangeFeedEvent> {
    let statuses = channel.statusChange.compactMap { status -> ChangeFeedEvent? in
        switch status {
        case .subscribed: .subscribed
        case .unsubscribed: .disconnected
        case .subscribing, .unsubscribing: nil
        }
    }
    let changes = channel.postgresChange(AnyAction.self, schema: "public", table: table)
        .compactMap { action -> ChangeFeedEvent? in
            do {
                return try RowChange(action, table: table).map(ChangeFeedEvent.change)
            } catch {
                // A record that cannot be read: the table's lists are fetched again instead.
                return .change(RowChange(kind: .update, table: table, errors: ["unreadable record"]))
            }
        }
    return merge(statuses, changes)
}

extension RowChange {
    /// One of Realtime's actions as a row change (`nil` for a select).
    init?(_ action: AnyAction, table: String) throws {
        switch action {
        case .insert(let insert):
            self = .insert(
                try Row(encoding: insert.record), into: table, columns: insert.columns.map(\.name),
                committedAt: insert.commitTimestamp)
        case .update(let update):
            self = .update(
                try Row(encoding: update.record), old: try Row(encoding: update.oldRecord), in: table,
                columns: update.columns.map(\.name), committedAt: update.commitTimestamp)
        case .delete(let delete):
            self = .delete(
                try Row(encoding: delete.oldRecord), from: table, committedAt: delete.commitTimestamp)
        case .select:
            return nil
        }
    }
}

/// "Follow it" (runs until the channel ends or the client closes).
func followTasks(_ client: OfflineClient, channel: RealtimeChannelV2) async throws {
    try await client.follow(changes: changeFeed(of: channel, table: "tasks"), tables: ["tasks"])
}
