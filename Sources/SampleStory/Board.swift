import Foundation
import OfflineEngine

/// The sample's screen: it follows a client's streams with `for try await`, prints what each
/// brings, and lets the story wait until the screen shows something.
actor Board {
    private(set) var state = BoardState()
    /// The story's waits, each fed every new state.
    private var watchers: [UUID: AsyncStream<BoardState>.Continuation] = [:]
    private let output: StoryOutput

    init(output: StoryOutput) {
        self.output = output
    }

    /// Shows the task list's snapshots until the reading task is cancelled (the user leaves the
    /// list) or the client closes.
    nonisolated func showList(_ list: ReadQuery) async throws {
        for try await snapshot in list.snapshots() { await show(snapshot) }
    }

    /// Follows `client` until it closes: the cloud marks, the queue, the rejected writes, the
    /// network and the session, each in a loop of its own.
    nonisolated func follow(_ client: OfflineClient, table: String) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await pending in client.pendingMutations(table: table) {
                    await self.change { $0.pendingIDs = Set(pending.flatMap(\.rowIDs)) }
                }
            }
            group.addTask {
                for try await count in client.pendingMutationCount() {
                    await self.change({ $0.pendingCount = count }, note: "  queue: \(count) waiting to sync")
                }
            }
            group.addTask {
                for try await rejected in client.rejectedMutations() { await self.showRejected(rejected) }
            }
            group.addTask {
                for try await network in client.connectivity {
                    await self.change({ $0.network = network }, note: "  \(SyncWords.network(network))")
                }
            }
            group.addTask {
                for try await session in client.session {
                    await self.change({ $0.session = session }, note: "  session: " + Self.words(session))
                }
            }
            try await group.waitForAll()
        }
    }

    /// Waits until the screen shows what `condition` says; throws when it has not after
    /// `seconds`, so a broken story ends instead of hanging.
    func until(
        _ what: String, within seconds: Int = 25, _ condition: @escaping @Sendable (BoardState) -> Bool
    )
        async throws
    {
        if condition(state) { return }
        let (states, watcher) = AsyncStream.makeStream(
            of: BoardState.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        watchers[id] = watcher
        defer {
            watchers[id] = nil
            watcher.finish()
        }
        let met = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await state in states where condition(state) { return true }
                return false
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        if !met { throw StoryError.timedOut(what) }
    }

    // MARK: Updates

    private func show(_ snapshot: QuerySnapshot) {
        state.snapshot = snapshot
        state.snapshots += 1
        for line in state.rendered { output.line(line) }
        wake()
    }

    private func change(_ update: (inout BoardState) -> Void, note: String? = nil) {
        let before = state.rendered
        update(&state)
        if let note { output.line(note) }
        // A new cloud mark shows at once, not with the next snapshot.
        if note == nil, state.rendered != before, state.snapshot != nil {
            for line in state.rendered { output.line(line) }
        }
        wake()
    }

    private func showRejected(_ rejected: [RejectedMutation]) {
        let known = Set(state.rejected.map(\.id))
        for write in rejected where !known.contains(write.id) {
            output.line(
                "  rejected: the \(write.operation.rawValue) of a task, because \(SyncWords.refusal(write))")
        }
        if rejected.isEmpty, !state.rejected.isEmpty { output.line("  rejected: none (dismissed)") }
        state.rejected = rejected
        wake()
    }

    private static func words(_ session: SessionState) -> String {
        switch session {
        case .restoring: return "restoring"
        case .signedOut: return "signed out"
        case .signedIn(let session): return "signed in as \(session.userID)"
        case .waitingForToken(let session): return "\(session.userID) must sign in again"
        }
    }

    private func wake() {
        for watcher in watchers.values { watcher.yield(state) }
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
