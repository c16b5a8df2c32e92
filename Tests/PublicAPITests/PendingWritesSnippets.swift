import Foundation
import OfflineEngine

// The catalog's "Showing pending and rejected writes" snippets. The row type and the retry
// compile everywhere; the SwiftUI screens compile where SwiftUI is (Apple platforms). Changes
// are marked "adapted".

struct TaskRow: Identifiable, Decodable, Sendable {
    var id: UUID
    var title: String
}

/// "Fix and retry".
func fixTitle(_ write: RejectedMutation, client: OfflineClient) async throws {
    let fixed = write.values.map { $0.merging(["title": "Untitled"]) }
    try await client.retry(write.id, values: fixed)
}

/// "Flush before the app is suspended".
func flushBeforeSuspension(client: OfflineClient) async throws -> Bool {
    let result = try await client.flush(within: .seconds(20))
    print("\(result.accepted.count) synced, \(result.remaining) left for later")
    return result.isComplete
}

#if canImport(SwiftUI)
    import SwiftUI

    struct TasksScreen: View {
        let client: OfflineClient
        @State private var tasks: LiveQueryModel<[TaskRow]>
        @State private var sync: SyncStatusModel

        init(client: OfflineClient) {
            self.client = client
            _tasks = State(
                initialValue: LiveQueryModel(client.from("tasks").select().order("title"), as: TaskRow.self))
            _sync = State(initialValue: SyncStatusModel(client))
        }

        var body: some View {
            List {
                if sync.pendingCount > 0 {
                    Text("\(sync.pendingCount) changes wait to sync")
                }
                ForEach(tasks.rows) { task in
                    HStack {
                        Text(task.title)
                        if tasks.pendingRowIDs.contains(task.id) { Image(systemName: "icloud.and.arrow.up") }
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
                                        Task { try? await client.dismissRejected(write.id) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            .task { await tasks.run() }
            .task { await sync.run() }
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

    struct OpenTasks: View {
        @LiveQuery<TaskRow> var tasks: [TaskRow]

        init(client: OfflineClient) {
            _tasks = LiveQuery(client.from("tasks").select().eq("done", value: false))
        }

        var body: some View {
            List(tasks) { task in
                Text(task.title).foregroundStyle(
                    $tasks.pendingRowIDs.contains(task.id) ? .secondary : .primary)
            }
            .overlay { if !$tasks.isLoaded { ProgressView() } }
            .task { await $tasks.run() }
        }
    }
#endif
