import Foundation

/// A queued write the server refused for good. It left the queue and the lists, and stays here,
/// on the device, until the app dismisses it with ``OfflineClient/dismissRejected(_:)``.
public struct RejectedMutation: Sendable, Hashable, Identifiable {
    /// The write's id (the same as its ``PendingMutation/id`` while it was queued).
    public var id: UUID
    /// The table it wrote to.
    public var table: String
    /// Insert, upsert, update or delete.
    public var operation: MutationOperation
    /// The rows it touched, as far as the engine can tell.
    public var rowKeys: [RowKey]
    /// The user who made it.
    public var ownerID: String?
    /// When it was made.
    public var createdAt: Date
    /// When the server refused it.
    public var rejectedAt: Date
    /// The server's refusal: HTTP status and PostgREST's code, message, details and hint.
    public var error: PostgrestError
    /// The write as it was sent, kept so that the app can retry it (`OfflineClient.retry(_:values:)`).
    package var write: Mutation

    /// The values it sent: an insert's or upsert's rows, an update's patch (empty for a delete,
    /// and for a write whose stored copy could not be read).
    public var values: [Row] { write.isReadable ? write.rows : [] }
    /// The filters that chose an update's or delete's rows.
    public var filters: [Filter] { write.isReadable ? write.filters : [] }
    /// The schema it wrote to (`nil`: the default).
    public var schema: String? { write.schema }

    /// The row keys as text, one per row.
    public var rowIDs: [String] { rowKeys.map(\.description) }
}

extension RejectedMutation {
    /// The code of a write the engine set aside itself, without sending it again: an INSERT
    /// without its key values whose earlier attempt got no answer. The server may hold it
    /// already, and sending it again could add a second row, so the app decides.
    public static let mayHaveBeenAppliedCode = "OFFLINE_MAY_HAVE_BEEN_APPLIED"

    /// The code of a queued write the engine set aside because its stored copy could not be
    /// read (a damaged file): it was never sent, and its rows are not known. Its table,
    /// operation, owner and date are.
    ///
    /// ```swift
    /// for try await rejected in client.rejectedMutations() {
    ///     let lost = rejected.filter { $0.error.code == RejectedMutation.unreadableCode }
    ///     if !lost.isEmpty { print("\(lost.count) offline changes could not be read back") }
    /// }
    /// ```
    public static let unreadableCode = "OFFLINE_STORED_WRITE_UNREADABLE"

    /// The code of a queued write rejected because it was sent ``Configuration/maxAttempts``
    /// times without an answer that settled it.
    public static let attemptsExhaustedCode = "OFFLINE_ATTEMPTS_EXHAUSTED"

    /// The code of a queued write rejected because it grew older than
    /// ``Configuration/maxWriteAge`` before it could be sent.
    public static let tooOldCode = "OFFLINE_TOO_OLD"

    /// The code of an update or delete made with ``WriteQuery/expectingRows(_:)`` that reached no
    /// row: the row was deleted, or changed so that it no longer matches, since the app read it.
    public static let conflictCode = PostgrestError.reachedNoRowCode

    /// The refusal of a write that reached no row though it had to (status 409: the server holds
    /// nothing of it).
    static let conflictRefusal = PostgrestError.reachedNoRow

    /// The refusal recorded for a write past the attempt cap.
    static let attemptsExhaustedRefusal = PostgrestError(
        status: 0, code: attemptsExhaustedCode,
        message: "This write was sent as many times as the client allows without an answer that settled it.",
        details: nil, hint: "Retry it once the server answers again, or discard it.")

    /// The refusal recorded for a write past the maximum age.
    static let tooOldRefusal = PostgrestError(
        status: 0, code: tooOldCode,
        message: "This write waited longer than the client allows before it could be sent.",
        details: nil, hint: "Retry it if it still holds, or discard it.")

    /// Whether the write was set aside because it may already have been applied (see
    /// ``mayHaveBeenAppliedCode``); otherwise the server refused it.
    public var mayHaveBeenApplied: Bool { error.code == Self.mayHaveBeenAppliedCode }

    /// The refusal recorded for such a write.
    static let mayHaveBeenAppliedRefusal = PostgrestError(
        status: 0, code: mayHaveBeenAppliedCode,
        message:
            "This write may already have been applied: an earlier attempt got no answer, and without its key values it cannot be checked or sent again safely.",
        details: nil, hint: "Give new rows an id made on the device, so an interrupted insert can be checked."
    )
}

extension RejectionDetails {
    /// What is kept of the server's refusal of a write.
    init(_ refusal: PostgrestError) {
        self.init(
            status: refusal.status, code: refusal.code, message: refusal.message, details: refusal.details,
            hint: refusal.hint)
    }
}
