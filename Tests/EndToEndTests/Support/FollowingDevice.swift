import Foundation
import OfflineEngine
import OfflineEngineTesting
import Synchronization

/// One of Alice's phones in the follow tests: a client of the gateway over HTTP that follows a
/// change feed read from PostgreSQL, as an app follows Realtime, and keeps a promise about its
/// own queued writes: while an update of hers waits in the queue, every list that shows the row
/// shows her title, whatever the feed brings meanwhile.
final class FollowingDevice: Sendable {
    /// The device's name, in failure messages.
    let name: String
    /// The client the app made.
    let client: OfflineClient
    /// The titles of the device's queued updates, by row id, while they are queued.
    private let promised = Mutex<[Int: String]>([:])
    /// Snapshots that broke the promise, described.
    private let broken = Mutex<[String]>([])
    /// How many snapshots showed a promised title again after the first time: the promise was
    /// checked, not only made.
    private let kept = Mutex(0)

    init(name: String, local: LocalHTTPServer) async throws {
        self.name = name
        client = try await gatewayClient(local)
        try await client.signIn(SupabaseDatabase.session(GatewayEndToEndTests.alice))
    }

    /// Follows `feed` until it ends, through the public bridge an app uses.
    func follow(_ feed: AsyncStream<ChangeFeedEvent>) async throws {
        try await client.follow(changes: feed, tables: ["tasks"])
    }

    /// Reads `list` live until the reader is cancelled, fetched again every `polling` when
    /// given (a feed's dropped change shows only at a fetch), checking every snapshot against
    /// the promise.
    func watch(_ list: FollowedList, polling: Duration?) async throws {
        let read = list.query(client)
        let snapshots = polling.map { read.snapshots(refreshingEvery: $0) } ?? read.snapshots()
        // A row counts once the list has shown its promised title: a snapshot made just before
        // the write may still be on its way.
        var shownPromises: [Int: String] = [:]
        for try await snapshot in snapshots {
            let promises = promised.withLock { $0 }
            shownPromises = shownPromises.filter { promises[$0.key] == $0.value }
            for row in snapshot.result?.rows ?? [] {
                guard let id = row.taskID, let title = promises[id] else { continue }
                let shown = row["title"]?.stringValue
                if shown == title {
                    if shownPromises[id] != nil { kept.withLock { $0 += 1 } }
                    shownPromises[id] = title
                } else if shownPromises[id] != nil {
                    let what =
                        "\(name)'s \(list.name) showed task \(id) as \(shown ?? "-") over its queued \(title)"
                    broken.withLock { $0.append(what) }
                }
            }
        }
    }

    /// Checks a snapshot that came while the queued update of task `id` waits: the row shows its
    /// queued `title`, whatever the feed brought.
    func check(_ snapshot: QuerySnapshot, shows title: String, of id: Int, in list: FollowedList) {
        let shown = snapshot.result?.rows.first { $0.taskID == id }?["title"]?.stringValue
        if shown == title {
            kept.withLock { $0 += 1 }
        } else {
            let what = "\(name)'s \(list.name) showed task \(id) as \(shown ?? "-") over its queued \(title)"
            broken.withLock { $0.append(what) }
        }
    }

    /// Queues (the device is offline) an update of task `id`'s title, and promises it.
    func queueTitle(_ title: String, of id: Int) async throws {
        let outcome = try await client.from("tasks").update(["title": .string(title)] as Row).eq(
            "id", value: id
        )
        .execute()
        guard outcome.isQueued else { throw FollowFailure("\(name)'s update of task \(id) was not queued") }
        promised.withLock { $0[id] = title }
    }

    /// The network comes back: the promises end (the writes replay) and the queue drains.
    func goOnlineAndDrain() async throws {
        promised.withLock { $0 = [:] }
        await client.enableNetwork()
        _ = try await first(of: client.pendingMutationCount(), within: 30) { $0 == 0 }
    }

    /// Waits until `list` shows what `matches` asks for.
    func waitUntil(
        _ list: FollowedList, within seconds: Double = 20, _ matches: @escaping @Sendable (QueryRows) -> Bool
    ) async throws -> QuerySnapshot {
        try await firstSnapshot(of: list.query(client), within: seconds) { snapshot in
            snapshot.result.map { matches($0.rows) } ?? false
        }
    }

    /// How many snapshots kept the promise after first showing it.
    var keptPromises: Int { kept.withLock { $0 } }

    /// The snapshots that broke the promise.
    var brokenPromises: [String] { broken.withLock { $0 } }
}

/// A step of a follow test that did not go as the test needs.
struct FollowFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
