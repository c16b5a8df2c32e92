import Foundation
import Observation

/// A live read as an `@Observable` model: its rows (decoded into your type, or as
/// ``QueryRows``), how its refresh stands, and which rows wait to sync, for SwiftUI views and
/// other observing code.
///
/// ```swift
/// @State private var tasks = LiveQueryModel(client.from("tasks").select().order("title"), as: Task.self)
///
/// var body: some View {
///     List(tasks.rows) { task in
///         Label(task.title, systemImage: tasks.pendingRowIDs.contains(task.id) ? "icloud.and.arrow.up" : "checkmark")
///     }
///     .task { await tasks.run() }   // the read runs while the view is on screen
/// }
/// ```
///
/// The model reads while ``run()`` runs and only then: leaving it (cancelling the task, as
/// SwiftUI does when the view goes away) ends the live read. Rows are decoded off the main actor,
/// and only the rows that joined when a write added rows at the end. Properties change on the
/// main actor, all of a snapshot's together, and only when their value changes: a snapshot
/// equal to the one shown changes nothing, and snapshots that come in a burst are skipped for
/// the newest once the read stops changing. Every property but ``error`` comes from one
/// snapshot, ``snapshot``, so rows and their marks never disagree.
@MainActor
@Observable
public final class LiveQueryModel<Rows: Sendable> {
    /// The rows of ``snapshot``: decoded, or empty until something is cached or fetched.
    public private(set) var rows: Rows
    /// Whether rows were read at all (from the cache or the server); `false` until then.
    public private(set) var isLoaded = false
    /// How the refresh behind the read stands.
    public private(set) var refresh = RefreshState.refreshing
    /// Whether the rows are the device's rather than a fresh answer with nothing since.
    public private(set) var isFromCache = true
    /// When the cached rows were last fetched from the server, if ever.
    public private(set) var fetchedAt: Date?
    /// Whether a queued write changed the rows.
    public private(set) var hasPendingMutations = false
    /// The ids of the rows a queued write touches: the rows to mark as not yet synced.
    public private(set) var pendingRowIDs = PendingRowIDs()
    /// The snapshot the other properties come from (`nil` before the first); reading it follows
    /// every change of the read.
    public private(set) var snapshot: QuerySnapshot?
    /// The last error: a snapshot whose rows could not be decoded (the properties keep the last
    /// snapshot that could; the next one that decodes, or the read coming back to the snapshot
    /// shown, clears it), or the read that could not start (the client was closed).
    public private(set) var error: (any Error)?

    @ObservationIgnored private let snapshots: @Sendable () -> AsyncThrowingStream<QuerySnapshot, any Error>
    /// How rows are decoded, holding the raw rows of the rows shown: a later run starts from
    /// what is on screen, not from no rows.
    @ObservationIgnored private var decoding: RowsDecoding<Rows>
    /// Decodes rows off the main actor (tests hold it to act meanwhile).
    @ObservationIgnored private let decodeOff: RowsDecoding<Rows>.OffTheCaller

    /// A model of the live read `query` whose rows are ``QueryRows``, as snapshots carry them.
    public convenience init(_ query: ReadQuery) where Rows == QueryRows {
        self.init(rows: [], snapshots: { query.snapshots() }, decoding: RowsDecoding())
    }

    /// A model of the live read `query` whose rows are decoded into `[T]` with the client's
    /// ``Configuration/decoder``.
    public convenience init<T: Decodable & Sendable>(_ query: ReadQuery, as type: T.Type) where Rows == [T] {
        let decoder = query.client?.decoder ?? Configuration.defaultDecoder()
        self.init(
            rows: [], snapshots: { query.snapshots() }, decoding: RowsDecoding(T.self, decoder: decoder))
    }

    /// A model of the snapshots `snapshots()` makes each time it runs.
    package init(
        rows: Rows, snapshots: @escaping @Sendable () -> AsyncThrowingStream<QuerySnapshot, any Error>,
        decoding: RowsDecoding<Rows>,
        decodeOff: @escaping RowsDecoding<Rows>.OffTheCaller = RowsDecoding.decodedOffTheCaller
    ) {
        self.rows = rows
        self.snapshots = snapshots
        self.decoding = decoding
        self.decodeOff = decodeOff
    }

    /// Reads the live read until the calling task is cancelled or the client closes, and keeps
    /// the properties up to date meanwhile; run it from a view's `.task { await model.run() }`.
    ///
    /// Each run is a reader of the live read (readers of one query share its list and its
    /// refresh); when it returns, its reader has left.
    public func run() async {
        do {
            // A burst of snapshots (writers queueing at once) reaches the view as its last.
            try await SettledValues.follow(snapshots()) { next in
                if next != snapshot {
                    await show(next)
                } else if error != nil {
                    // Back to the snapshot shown (a row that failed to decode left): nothing failed.
                    error = nil
                }
            }
        } catch is CancellationError {
        } catch {
            self.error = error
        }
    }

    /// Shows `next` once its rows are decoded; keeps the shown snapshot when they cannot be, and
    /// everything when the run was cancelled while they were decoded (a newer run may show since).
    private func show(_ next: QuerySnapshot) async {
        let raw = next.result?.rows ?? []
        var decoded: Rows?
        if !decoding.isCurrent(raw) {
            var decoding = decoding
            let result: Result<Rows, any Error>
            if decoding.decodes {
                (decoding, result) = await decodeOff(decoding, raw)
                if Task.isCancelled { return }
            } else {
                result = Result { try decoding.rows(of: raw) }
            }
            self.decoding = decoding
            switch result {
            case .success(let rows):
                decoded = rows
            case .failure(let failure):
                error = failure
                return
            }
        }
        if let decoded { rows = decoded }
        if isLoaded != (next.result != nil) { isLoaded = next.result != nil }
        if refresh != next.refresh { refresh = next.refresh }
        if isFromCache != next.isFromCache { isFromCache = next.isFromCache }
        if fetchedAt != next.fetchedAt { fetchedAt = next.fetchedAt }
        if hasPendingMutations != next.hasPendingMutations { hasPendingMutations = next.hasPendingMutations }
        if pendingRowIDs != next.pendingRowIDs { pendingRowIDs = next.pendingRowIDs }
        if error != nil { error = nil }
        snapshot = next
    }
}
