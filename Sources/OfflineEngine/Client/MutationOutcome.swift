import Foundation

/// What the server made of a queued write, as ``OfflineClient/outcome(of:)`` tells it once the
/// write has left the queue, in this run of the app or after a relaunch.
public enum MutationOutcome: Sendable, Hashable {
    /// The server accepted it, at that time, with the rows it sent back (none unless the write
    /// asked for them with `select()`).
    case accepted(at: Date, rows: [Row])
    /// The server refused it for good (or it passed the attempt cap or the maximum age); it
    /// waits in ``OfflineClient/rejectedMutations()``.
    case rejected(RejectedMutation)
    /// An update or delete made with ``WriteQuery/expectingRows(_:)`` reached no row; it waits
    /// in ``OfflineClient/rejectedMutations()`` with ``RejectedMutation/conflictCode``.
    case conflict(RejectedMutation)
    /// Nothing is known of it: no such queued write, one rejected and then discarded, one wiped
    /// by `clearLocalData()`, or one accepted longer ago than the newest 10,000 kept.
    case unknown
}

extension OfflineClient {
    /// Waits until the queued write `id` leaves the queue, then tells what the server made of it.
    /// The outcome is kept on the device, so it can be asked after a relaunch:
    ///
    /// ```swift
    /// if case .queued(let pending) = try await client.from("tasks").insert(task).execute().outcome {
    ///     switch try await client.outcome(of: pending.id) {
    ///     case .accepted: markSynced(task)
    ///     case .rejected(let write), .conflict(let write): showProblem(write)
    ///     case .unknown: break
    ///     }
    /// }
    /// ```
    ///
    /// Throws ``ClientError/closed`` when the client closes while the write is still queued.
    public func outcome(of id: UUID) async throws -> MutationOutcome {
        try await openedEngine().outcome(of: id)
    }
}

extension Engine {
    /// Waits for `id` to leave the queue (woken by its own departure; not as a call under way:
    /// closing does not wait for it), then reads its outcome from the rejected writes and the
    /// accepted ids.
    func outcome(of id: UUID) async throws -> MutationOutcome {
        guard !calls.isClosed else { throw ClientError.closed }
        let state = state
        await outputs.departures.wait(for: id) { await state.isQueued(id) }
        // The write leaves the queue in the same step that records where it went.
        guard !(await state.isQueued(id)) else {
            try Task.checkCancellation()
            throw ClientError.closed
        }
        if let rejected = outputs.rejected.facts.value.all.first(where: { $0.id == id }) {
            return rejected.error.code == RejectedMutation.conflictCode
                ? .conflict(rejected) : .rejected(rejected)
        }
        if let accepted = try await store.accepted.accepted(id) {
            return .accepted(at: accepted.at, rows: accepted.rows)
        }
        return .unknown
    }
}
