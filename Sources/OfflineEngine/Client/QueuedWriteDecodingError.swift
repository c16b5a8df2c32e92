import Foundation

/// A write was queued (it is saved on the device and will be sent), but its rows as the device
/// shows them do not decode into the type asked for: typically a column the server fills in
/// (an id, `created_at`) that the row does not carry yet. The write is not failed: do not make it
/// again. Declare the column in ``Configuration/tables`` (``TableSettings/madeOnDevice``) so the
/// device makes it, or decode a model whose server-made columns are optional.
///
/// ```swift
/// do {
///     let saved: Channel = try await client.from("channels").insert(draft).select().single().execute().value
///     show(saved)
/// } catch let queued as QueuedWriteDecodingError {
///     showPending(queued.pending)   // it will sync; nothing to retry
/// }
/// ```
public struct QueuedWriteDecodingError: Error, Sendable, CustomStringConvertible {
    /// The queued write, as ``OfflineClient/pendingMutations(table:schema:)`` lists it.
    public let pending: PendingMutation
    /// Why the rows did not decode, for logs (it names the missing or mistyped column, no value).
    public let decodingError: DecodingError

    public var description: String {
        "The change is saved on the device and will sync, but its row as the device shows it could not be read as the type asked for (a column the server fills in may be missing)."
    }
}
