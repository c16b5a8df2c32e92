import Foundation

@testable import OfflineEngine

/// What every store fixture holds (`scripts/store-fixtures/FixtureGenerator.swift` wrote it with
/// the code of each version): user-1's session, three cached lists, and seven writes of user-1:
/// w1 and w2 replayed (not retired), w3 rejected, w4 sent without an answer (in flight from
/// version 2), w5, w6 and w7 queued.
enum StoreFixtureScenario {
    static let owner = "user-1"
    static let session = AuthSession(
        accessToken: "token-user-1", refreshToken: "refresh-user-1", userID: "user-1",
        expiresAt: Date(timeIntervalSince1970: 4_102_444_800))

    /// The id of write `number` (1 to 7).
    static func write(_ number: Int) -> UUID {
        UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 11) + String(number))!
    }

    static let replayed = [write(1), write(2)]
    static let rejected = write(3)
    static let inFlight = write(4)
    /// The queue, in order: the write in flight, then the three never sent.
    static let queued = [write(4), write(5), write(6), write(7)]

    static func row(_ text: String) -> Row {
        Row(json: try! JSONText.parse(text))!
    }

    static let tasks = [
        #"{"id":"t1","title":"Buy milk","done":false,"estimate":9007199254740993,"price":1.50}"#,
        #"{"id":"t2","title":"Call mum","done":false,"estimate":2,"price":0.1}"#,
        #"{"id":"t3","title":"Write report","done":true,"estimate":3,"price":10}"#,
    ].map(row)

    /// The cached lists: their reads and the rows the fixture holds for each.
    static let lists: [(read: ReadQuery, rows: [Row])] = [
        (TableQuery(table: "tasks").select().order("title"), tasks),
        (
            TableQuery(table: "tasks").select("id,title").eq("done", value: false),
            [row(#"{"id":"t1","title":"Buy milk"}"#), row(#"{"id":"t2","title":"Call mum"}"#)]
        ),
        (TableQuery(table: "notes").select(), [row(#"{"id":"n1","body":"Ünïcode ✓ note"}"#)]),
    ]

    /// The server when the app relaunches: it applied w1, w2 and (its answer lost) w4.
    static var server: [String: [Row]] {
        var tasks = tasks
        tasks[0]["done"] = .bool(true)
        tasks.append(row(#"{"id":"t4","title":"Pay rent","done":false}"#))
        tasks.append(row(#"{"id":"t6","title":"Sent before the crash","done":false}"#))
        return ["tasks": tasks, "notes": [lists[2].rows[0]]]
    }

    /// The server once the queue has replayed: w5, w6 and w7 applied, w4 not applied twice.
    static var serverAfterReplay: [String: [Row]] {
        var tables = server
        tables["tasks"]?[1]["title"] = .string("Call mum back")
        tables["tasks"]?.remove(at: 2)
        tables["notes"]?.append(row(#"{"id":"n2","body":"Second note"}"#))
        return tables
    }

    /// The write requests the replay sends, in order (method, table, query): w4, w5, w6, w7.
    static let replayRequests = [
        "POST /rest/v1/tasks", "PATCH /rest/v1/tasks?id=eq.t2", "DELETE /rest/v1/tasks?id=eq.t3",
        "POST /rest/v1/notes",
    ]
}
