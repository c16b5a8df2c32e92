import Foundation

/// What the client did, for an app's logs and metrics (``OfflineClient/events``): requests,
/// replays, writes queued, accepted and rejected, refresh state changes. Each names its table,
/// operation and write id where it has them, never values, URLs or tokens.
///
/// ```swift
/// for try await event in client.events {
///     logger.info("\(event.kind) \(event.table ?? "-") \(event.mutationID?.uuidString ?? "")")
/// }
/// ```
public struct SyncEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// A read was sent to the server.
        case readSent
        /// A write was kept in the queue, to be sent when it can.
        case writeQueued
        /// A write's request left (sent at once, or replayed).
        case writeSent
        /// The server accepted a write.
        case writeAccepted
        /// A write was rejected, with PostgREST's or the engine's code.
        case writeRejected(code: String?)
        /// A replay pass began sending queued writes.
        case replayStarted
        /// A replay pass stopped (the queue drained, or a failure stopped it).
        case replayEnded
        /// A live read's refresh moved to another state.
        case refreshChanged(Refresh)
    }

    /// A refresh state by name, without a stall's cause (whose underlying error may carry a URL).
    public enum Refresh: String, Sendable, Hashable {
        case idle, refreshing, paused, stalled

        init(_ state: RefreshState) {
            switch state {
            case .idle: self = .idle
            case .refreshing: self = .refreshing
            case .paused: self = .paused
            case .stalled: self = .stalled
            }
        }
    }

    public var kind: Kind
    /// The table, when the event concerns one.
    public var table: String?
    /// The write's operation, for write events.
    public var operation: MutationOperation?
    /// The write's id, for write events.
    public var mutationID: UUID?
    /// When it happened.
    public var at: Date

    init(_ kind: Kind, table: String? = nil, operation: MutationOperation? = nil, mutationID: UUID? = nil) {
        self.kind = kind
        self.table = table
        self.operation = operation
        self.mutationID = mutationID
        at = Date()
    }

    /// An event about `write`.
    init(_ kind: Kind, _ write: Mutation) {
        self.init(kind, table: write.table, operation: write.operation, mutationID: write.id)
    }
}
