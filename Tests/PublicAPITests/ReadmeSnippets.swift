import Foundation
import OfflineEngine

// The README's "Use" snippet, split into functions so a test can run the parts that need no real
// project. Changes from the README are marked "adapted".

/// Opens a client on a real project (compiled only: it names a real URL).
func readmeOpenClient(anonKey: String, appSupportURL: URL) async throws -> OfflineClient {
    let client = try await OfflineClient(
        configuration: Configuration(
            url: URL(string: "https://abc.supabase.co")!,
            apiKey: anonKey,
            storage: .directory(appSupportURL)
        ))
    return client
}

/// Reads the live list until its refresh is idle and returns the tasks it then shows.
func readmeLiveRead(_ client: OfflineClient) async throws -> [Task] {
    for try await snapshot in client.from("tasks").select("id,title,done")
        .eq("done", value: false).order("created_at").snapshots()
    {
        let tasks = try snapshot.result?.decode([Task].self) ?? []
        // snapshot.refresh: .idle, .refreshing, .paused or .stalled(cause)
        if snapshot.refresh == .idle, snapshot.result != nil { return tasks }  // adapted: the loop ends
    }
    return []
}

/// Reads once, then inserts `task`.
func readmeFetchAndInsert(_ client: OfflineClient, task: Task) async throws -> (
    FetchResult, WriteResponse<Void>
) {
    let once = try await client.from("tasks").select().fetch()  // one-shot read
    _ = (once.rows, once.hasPendingMutations, once.isFromCache, once.fetchedAt)  // adapted: `_ =`

    // .outcome: .sent(rows) or .queued(pending)
    let result = try await client.from("tasks").insert(task).execute()
    return (once, result)  // adapted
}

#if canImport(SwiftUI)
    import SwiftUI

    extension Task: Identifiable {}  // adapted: `List` takes identifiable rows

    /// The README's "SwiftUI and Observation" snippet (adapted: the view around it, whose
    /// initialiser makes the models for its client).
    struct ReadmeTasksView: View {
        @State private var tasks: LiveQueryModel<[Task]>
        @State private var sync: SyncStatusModel

        init(client: OfflineClient) {
            _tasks = State(
                initialValue: LiveQueryModel(client.from("tasks").select().order("title"), as: Task.self))
            _sync = State(initialValue: SyncStatusModel(client))
        }

        var body: some View {
            List(tasks.rows) { task in
                Label(
                    task.title,
                    systemImage: tasks.pendingRowIDs.contains(task.id) ? "icloud.and.arrow.up" : "checkmark")
            }
            .task { await tasks.run() }  // leaving the screen cancels it, which ends the live read
            .task { await sync.run() }
        }
    }
#endif
