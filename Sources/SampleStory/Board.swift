import Foundation
import Observation
import OfflineEngine

/// The sample's screen: the task table from a `LiveQueryModel`, the queue, the rejected writes and
/// the network from a `SyncStatusModel`, and the session from its stream. It prints what changes
/// and lets the story wait until the screen shows something.
@MainActor
@Observable
final class Board {
    /// The client's sync status and rejected writes.
    let sync: SyncStatusModel
    /// The task list's model while the list is open.
    private(set) var list: LiveQueryModel<[TaskItem]>?
    private(set) var session = SessionState.restoring
    @ObservationIgnored private let output: StoryOutput
    /// How many times longer each wait of ``until(_:within:_:)`` may be.
    @ObservationIgnored private let patience: Double

    init(client: OfflineClient, output: StoryOutput, patience: Double = 1) {
        sync = SyncStatusModel(client)
        self.output = output
        self.patience = patience
    }

    /// What the screen shows now.
    var state: BoardState {
        BoardState(
            snapshot: list?.snapshot, tasks: list?.rows ?? [], pendingIDs: list?.pendingRowIDs ?? [],
            pendingCount: sync.pendingCount, rejected: sync.rejected, network: sync.connectivity,
            session: session)
    }

    /// Shows the task list `query` until the reading task is cancelled (the user leaves the
    /// list) or the client closes: its model runs, and each snapshot it shows is printed.
    func showList(_ query: ReadQuery) async {
        let model = LiveQueryModel(query, as: TaskItem.self)
        list = model
        await withDiscardingTaskGroup { group in
            group.addTask { await self.printTables(of: model) }
            await model.run()
            group.cancelAll()
        }
        if list === model { list = nil }
    }

    /// Follows `client` until it closes: its sync status and rejected writes, and its session;
    /// each change is printed as a note.
    func follow(_ client: OfflineClient) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.printNotes() }
            await withDiscardingTaskGroup { streams in
                streams.addTask { await self.sync.run() }
                streams.addTask { await self.followSession(client) }
            }
            group.cancelAll()
        }
    }

    /// Waits until the screen shows what `condition` says; throws when it has not after
    /// `seconds` (times the board's patience), so a broken story ends instead of hanging.
    func until(
        _ what: String, within seconds: Int = 25, _ condition: @escaping @Sendable (BoardState) -> Bool
    ) async throws {
        let met = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { await self.shows(condition) }
            group.addTask {
                try await Task.sleep(for: .seconds(Double(seconds) * self.patience))
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        if !met { throw StoryError.timedOut(what) }
    }

    /// Returns once the screen shows what `condition` says: `true`, or `false` when cancelled first.
    private func shows(_ condition: (BoardState) -> Bool) async -> Bool {
        await observe(until: { condition(state) })
        return !Task.isCancelled
    }

    // MARK: Printing

    /// Prints the table each time the list's model shows another snapshot: its rows and marks
    /// are that snapshot's.
    private func printTables(of model: LiveQueryModel<[TaskItem]>) async {
        var printed: QuerySnapshot?
        await observeChanges {
            guard let snapshot = model.snapshot, snapshot != printed else { return }
            printed = snapshot
            output.board(PrintedBoard(lines: state.rendered, snapshot: snapshot))
        }
    }

    /// Prints a note for each change of the queue, the network, the session and the rejected
    /// writes.
    private func printNotes() async {
        var count: Int?
        var network: Connectivity?
        var session: SessionState?
        var rejected: [RejectedMutation] = []
        await observeChanges {
            if count != sync.pendingCount {
                count = sync.pendingCount
                output.line("  queue: \(sync.pendingCount) waiting to sync")
            }
            if network != sync.connectivity {
                network = sync.connectivity
                output.line("  \(SyncWords.network(sync.connectivity))")
            }
            if session != self.session {
                session = self.session
                output.line("  session: " + Self.words(self.session))
            }
            if rejected != sync.rejected {
                showRejected(sync.rejected, known: rejected)
                rejected = sync.rejected
            }
        }
    }

    private func followSession(_ client: OfflineClient) async {
        do {
            for try await session in client.session where session != self.session { self.session = session }
        } catch {
            output.line("  session: no longer followed (\(error))")
        }
    }

    private func showRejected(_ rejected: [RejectedMutation], known: [RejectedMutation]) {
        let knownIDs = Set(known.map(\.id))
        for write in rejected where !knownIDs.contains(write.id) {
            output.line(
                "  rejected: the \(write.operation.rawValue) of a task, because \(SyncWords.refusal(write))")
        }
        if rejected.isEmpty, !known.isEmpty { output.line("  rejected: none (dismissed)") }
    }

    private static func words(_ session: SessionState) -> String {
        switch session {
        case .restoring: return "restoring"
        case .signedOut: return "signed out"
        case .signedIn(let session): return "signed in as \(session.userID)"
        case .waitingForToken(let session): return "\(session.userID) must sign in again"
        }
    }
}

/// Why the story stopped.
enum StoryError: Error, CustomStringConvertible {
    case timedOut(String)

    var description: String {
        switch self {
        case .timedOut(let what): return "The story waited too long for: \(what)."
        }
    }
}
