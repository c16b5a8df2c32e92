import Foundation
import OfflineEngine

// A scripted offline/online story against an in-process PostgREST stand-in: no account and no
// server to set up. Each snapshot of a live read is printed as it arrives.

struct TodoItem: Codable, Sendable {
    var id: UUID
    var title: String
    var done: Bool
}

let seed: [Row] = [
    ["id": "6f1c2a3e-0000-4000-8000-000000000001", "title": "Buy milk", "done": false],
    ["id": "6f1c2a3e-0000-4000-8000-000000000002", "title": "Call the plumber", "done": false],
    ["id": "6f1c2a3e-0000-4000-8000-000000000003", "title": "File taxes", "done": true],
]
let server = InMemoryPostgREST(tables: ["tasks": seed])
let client = try await OfflineClient(
    configuration: Configuration(
        url: URL(string: "https://demo.invalid")!, apiKey: "demo-anon-key", storage: .inMemory,
        transport: server))
try await client.signIn(AuthSession(accessToken: "demo-access-token", userID: "demo-user"))

let openTasks = client.from("tasks").select("id,title,done").eq("done", value: false)

/// Prints every snapshot of the open-task list.
let printer = Task<Void, Error> {
    for try await snapshot in openTasks.snapshots() {
        let tasks = try snapshot.result?.decode([TodoItem].self) ?? []
        let titles = tasks.map { "\($0.title)" }.joined(separator: ", ")
        let source = snapshot.isFromCache ? "device" : "server"
        let pending = snapshot.hasPendingMutations ? " (pending writes)" : ""
        print("  snapshot  \(describe(snapshot.refresh)), rows from \(source)\(pending): [\(titles)]")
    }
}

func describe(_ state: RefreshState) -> String {
    switch state {
    case .idle: return "up to date"
    case .refreshing: return "asking the server"
    case .paused: return "paused while offline"
    case .stalled: return "can't reach the server"
    }
}

/// Waits until a snapshot of the open-task list meets `condition`.
func waitForSnapshot(_ condition: @escaping @Sendable (QuerySnapshot) -> Bool) async throws {
    for try await snapshot in openTasks.snapshots() where condition(snapshot) { return }
}

func step(_ text: String) { print("\n\(text)") }

step("1. Online: the list is fetched from the server.")
try await waitForSnapshot { $0.refresh == .idle }

step("2. The network goes down; two new tasks and one edit are written on the device.")
await client.disableNetwork()
for title in ["Water the plants", "Book train tickets"] {
    let result = try await client.from("tasks").insert(TodoItem(id: UUID(), title: title, done: false))
        .execute()
    if case .queued(let pending) = result { print("  queued    insert \(pending.rowIDs)") }
}
let edit = try await client.from("tasks").update(["done": true]).eq(
    "id", value: "6f1c2a3e-0000-4000-8000-000000000001"
)
.execute()
if case .queued(let pending) = edit { print("  queued    update \(pending.rowIDs)") }
try await waitForSnapshot { $0.hasPendingMutations && $0.result?.rows.count == 3 }
for try await count in client.pendingMutationCount() {
    print("  \(count) writes wait in the queue")
    break
}

step("3. The network comes back: the queue replays in order and the list is fetched again.")
await client.enableNetwork()
for try await count in client.pendingMutationCount() where count == 0 { break }
_ = try await openTasks.fetch()
try await waitForSnapshot { !$0.hasPendingMutations && $0.refresh == .idle }

step("4. The server now holds:")
for row in await server.rows(of: "tasks") {
    let done = row["done"] == .bool(true) ? "x" : " "
    print("  [\(done)] \(row["title"]?.stringValue ?? "")")
}

printer.cancel()
await client.close()
print("\nDone.")
