import Foundation
import Observation
import OfflineEngine

// The catalog's "Showing pending and rejected writes" snippets. The model and the retry compile
// everywhere; the SwiftUI screen compiles where SwiftUI is (Apple platforms). Changes are marked
// "adapted".

@MainActor @Observable
final class SyncModel {
    var pendingIDs: Set<String> = []
    var rejected: [RejectedMutation] = []
    var status: SyncStatus?

    /// Follows the client until it closes (or the screen's task is cancelled).
    func follow(_ client: OfflineClient) async {
        async let pending: Void = followPending(client)
        async let rejected: Void = followRejected(client)
        async let status: Void = followStatus(client)
        _ = await (pending, rejected, status)
    }

    private func followPending(_ client: OfflineClient) async {
        do {
            for try await pending in client.pendingMutations(table: "tasks") {
                pendingIDs = Set(pending.flatMap(\.rowIDs))
            }
        } catch {}
    }

    private func followRejected(_ client: OfflineClient) async {
        do {
            for try await rejected in client.rejectedMutations() { self.rejected = rejected }
        } catch {}
    }

    private func followStatus(_ client: OfflineClient) async {
        do {
            for try await status in client.syncStatus { self.status = status }
        } catch {}
    }
}

/// "Fix and retry".
func fixTitle(_ write: RejectedMutation, client: OfflineClient) async throws {
    let fixed = write.values.map { $0.merging(["title": "Untitled"]) }
    try await client.retry(write.id, values: fixed)
}

#if canImport(SwiftUI)
    import SwiftUI

    /// A row of the screen's list (adapted: the app's own type).
    struct TaskRow: Identifiable {
        var id: String
        var title: String
    }

    struct TasksScreen: View {
        let client: OfflineClient
        let tasks: [TaskRow]
        @State private var sync = SyncModel()

        var body: some View {
            List {
                if let status = sync.status, status.pendingCount > 0 {
                    Text("\(status.pendingCount) changes wait to sync")
                }
                ForEach(tasks) { task in
                    HStack {
                        Text(task.title)
                        if sync.pendingIDs.contains(task.id) { Image(systemName: "icloud.and.arrow.up") }
                    }
                }
                if !sync.rejected.isEmpty {
                    Section("Not saved") {
                        ForEach(sync.rejected) { write in
                            VStack(alignment: .leading) {
                                Text(reason(write))
                                HStack {
                                    Button("Try again") { Task { try? await client.retry(write.id) } }
                                    Button("Discard", role: .destructive) {
                                        Task { try? await client.discard(write.id) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            .task { await sync.follow(client) }
        }

        func reason(_ write: RejectedMutation) -> String {
            switch write.error.code {
            case "23505": return "A task with this name already exists."
            case "42501": return "You may not change this task."
            case RejectedMutation.attemptsExhaustedCode: return "The server did not answer."
            default: return "The server refused this change."
            }
        }
    }
#endif
