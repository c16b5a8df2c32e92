import Foundation
import OfflineEngine
import OfflineEngineTesting

// A scripted offline/online story against an in-process PostgREST stand-in: no account and no
// server to set up. Each snapshot of a live read is printed as it arrives.

struct TodoItem: Codable, Sendable {
    var id: UUID
    var title: String
    var done: Bool
}

/// Reads the snapshots of one live query and prints each, until one meets a condition.
@MainActor
final class SnapshotReader {
    private var snapshots: AsyncThrowingStream<QuerySnapshot, Error>.Iterator

    init(_ query: ReadQuery) {
        snapshots = query.snapshots().makeAsyncIterator()
    }

    /// Prints snapshots until one meets `condition`.
    func read(until condition: (QuerySnapshot) -> Bool) async throws {
        var iterator = snapshots
        defer { snapshots = iterator }
        while let snapshot = try await iterator.next(isolation: #isolation) {
            try show(snapshot)
            if condition(snapshot) { return }
        }
    }

    private func show(_ snapshot: QuerySnapshot) throws {
        guard let result = snapshot.result else {
            print("  snapshot  \(describe(snapshot.refresh)), nothing cached yet")
            return
        }
        let titles = try result.decode([TodoItem].self).map(\.title).joined(separator: ", ")
        let source = snapshot.isFromCache ? "the device" : "the server"
        let pending = snapshot.hasPendingMutations ? " with pending writes" : ""
        print("  snapshot  \(describe(snapshot.refresh)); rows from \(source)\(pending): \(titles)")
    }

    private func describe(_ state: RefreshState) -> String {
        switch state {
        case .idle: return "up to date"
        case .refreshing: return "asking the server"
        case .paused: return "paused while offline"
        case .stalled: return "can't reach the server"
        }
    }
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
let reader = SnapshotReader(openTasks)

func titles(_ snapshot: QuerySnapshot) -> [String] {
    (snapshot.result?.rows ?? []).compactMap { $0["title"]?.stringValue }
}

print("1. Online: the open tasks are fetched from the server.")
try await reader.read { $0.refresh == .idle }

print("\n2. The network goes down; two tasks are added and one is ticked off, on the device.")
await client.disableNetwork()
for title in ["Water the plants", "Book train tickets"] {
    let task = TodoItem(id: UUID(), title: title, done: false)
    if case .queued(let pending) = try await client.from("tasks").insert(task).execute().outcome {
        print("  queued    insert of \(title) (\(pending.rowIDs.joined()))")
    }
    try await reader.read { titles($0).contains(title) }
}
let milk = "6f1c2a3e-0000-4000-8000-000000000001"
if case .queued = try await client.from("tasks").update(["done": true]).eq("id", value: milk).execute()
    .outcome
{
    print("  queued    update of Buy milk (done)")
}
try await reader.read { !titles($0).contains("Buy milk") }
for try await count in client.pendingMutationCount() {
    print("  \(count) writes wait in the queue; the server has not seen them")
    break
}

print("\n3. The network comes back: the queue replays in order, then the list is fetched again.")
await client.enableNetwork()
for try await count in client.pendingMutationCount() where count == 0 { break }
_ = try await openTasks.fetch()
try await reader.read { !$0.hasPendingMutations && !$0.isFromCache && $0.refresh == .idle }

print("\n4. The server now holds:")
for row in await server.rows(of: "tasks") {
    let done = row["done"] == .bool(true) ? "x" : " "
    print("  [\(done)] \(row["title"]?.stringValue ?? "")")
}

await client.close()
print("\nDone.")
