import Foundation

/// The rejected writes, every owner's, and whose are shown.
struct RejectedFacts: Sendable, Hashable {
    /// Every rejected write not yet dismissed, oldest first.
    var all: [RejectedMutation] = []
    /// The user whose rejected writes are shown (`nil`: nobody signed in).
    var owner: String?

    /// The rejected writes ``owner`` may see: their own and owner-less ones.
    var visible: [RejectedMutation] {
        all.filter { $0.ownerID == nil || $0.ownerID == owner }
    }
}

extension RejectedMutation {
    /// The app's view of a write the store keeps as rejected.
    init(_ write: RejectedWrite, primaryKeys: PrimaryKeys) {
        let pending = PendingMutation(write.mutation, primaryKeys: primaryKeys)
        self.init(
            id: write.mutation.id, table: write.mutation.table, operation: write.mutation.operation,
            rowKeys: pending.rowKeys, ownerID: write.mutation.ownerID, createdAt: write.mutation.createdAt,
            rejectedAt: write.rejectedAt,
            error: PostgrestError(
                status: write.details.status, code: write.details.code, message: write.details.message,
                details: write.details.details, hint: write.details.hint),
            write: write.mutation)
    }
}
