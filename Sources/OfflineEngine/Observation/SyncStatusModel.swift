import Foundation
import Observation

/// The client's sync status and its rejected writes as an `@Observable` model, for a status bar,
/// a settings screen or a "Not saved" section.
///
/// ```swift
/// @State private var sync = SyncStatusModel(client)
///
/// var body: some View {
///     VStack {
///         if sync.isWaitingForSession { Text("Sign in again to sync") }
///         else if sync.pendingCount > 0 { Text("\(sync.pendingCount) changes wait to sync") }
///         ForEach(sync.rejected) { write in Text("Not saved: \(write.table)") }
///     }
///     .task { await sync.run() }
/// }
/// ```
///
/// It follows ``OfflineClient/syncStatus`` and ``OfflineClient/rejectedMutations()`` while
/// ``run()`` runs, with the rules of ``LiveQueryModel``: properties change on the main actor and
/// only when their value changes. After a value comes, the model lets other tasks run until the
/// value stops changing (up to a bound) before it takes the newest, so a burst of writes reaches
/// it as a handful of changes ending on the last.
@MainActor
@Observable
public final class SyncStatusModel {
    /// The network as the client sees it.
    public private(set) var connectivity = Connectivity.unknown
    /// Whether queued writes are being sent now.
    public private(set) var isUploading = false
    /// How many of the current user's writes wait in the queue.
    public private(set) var pendingCount = 0
    /// When the oldest of them was made (`nil`: none waits).
    public private(set) var oldestPendingAt: Date?
    /// Why the last replay pass stopped short, in the library's words; `nil` once a write is
    /// accepted again.
    public private(set) var lastUploadError: String?
    /// When a write was last accepted by the server.
    public private(set) var lastSyncedAt: Date?
    /// Whether the signed-in user's writes wait for a usable session.
    public private(set) var isWaitingForSession = false
    /// The tables whose change feed is followed but not subscribed now
    /// (``SyncStatus/disconnectedFeeds``): for a quiet "live updates paused" mark.
    public private(set) var disconnectedFeeds: Set<String> = []
    /// The writes the server refused for good, until retried or discarded.
    public private(set) var rejected: [RejectedMutation] = []
    /// Why following the client stopped (it was closed), if it did.
    public private(set) var error: (any Error)?

    @ObservationIgnored private let statuses: @Sendable () -> AsyncThrowingStream<SyncStatus, any Error>
    @ObservationIgnored private let rejections:
        @Sendable () -> AsyncThrowingStream<[RejectedMutation], any Error>

    /// A model of `client`'s sync status and rejected writes.
    public convenience init(_ client: OfflineClient) {
        self.init(statuses: { client.syncStatus }, rejections: { client.rejectedMutations() })
    }

    /// A model of the streams `statuses()` and `rejections()` make each time it runs.
    package init(
        statuses: @escaping @Sendable () -> AsyncThrowingStream<SyncStatus, any Error>,
        rejections: @escaping @Sendable () -> AsyncThrowingStream<[RejectedMutation], any Error>
    ) {
        self.statuses = statuses
        self.rejections = rejections
    }

    /// Follows the client until the calling task is cancelled or the client closes; run it from
    /// a view's `.task { await model.run() }`.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followStatus() }
            group.addTask { await self.followRejected() }
        }
    }

    private func followStatus() async {
        do {
            try await SettledValues.follow(statuses()) { show($0) }
        } catch {
            stop(error)
        }
    }

    private func followRejected() async {
        do {
            try await SettledValues.follow(rejections()) { writes in
                if writes != rejected { rejected = writes }
            }
        } catch {
            stop(error)
        }
    }

    private func show(_ status: SyncStatus) {
        if connectivity != status.connectivity { connectivity = status.connectivity }
        if isUploading != status.isUploading { isUploading = status.isUploading }
        if pendingCount != status.pendingCount { pendingCount = status.pendingCount }
        if oldestPendingAt != status.oldestPendingAt { oldestPendingAt = status.oldestPendingAt }
        if lastUploadError != status.lastUploadError { lastUploadError = status.lastUploadError }
        if lastSyncedAt != status.lastSyncedAt { lastSyncedAt = status.lastSyncedAt }
        if isWaitingForSession != status.isWaitingForSession {
            isWaitingForSession = status.isWaitingForSession
        }
        if disconnectedFeeds != status.disconnectedFeeds { disconnectedFeeds = status.disconnectedFeeds }
    }

    private func stop(_ failure: any Error) {
        if !(failure is CancellationError) { error = failure }
    }
}
