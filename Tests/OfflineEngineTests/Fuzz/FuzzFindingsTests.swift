import Foundation
import Testing

@testable import OfflineEngine

/// Inputs the parser fuzzing found that broke the engine, each kept as a test.
@Suite("Fuzz findings", .timeLimit(.minutes(10)))
struct FuzzFindingsTests {
    @Test(
        "a stored list key whose query holds an invalid percent escape reads as no query, never a trap (URLComponents traps on it)",
        arguments: ["public/tasks?select=%zz", "public/tasks?a=%", "public/tasks?%E2%82=eq.1"])
    func invalidEscapesInAStoredKey(_ key: String) {
        #expect(QueryDescription(canonicalKey: key) == nil)
    }

    @Test("a stored list key still reads back the query it was written for")
    func keysStillRead() throws {
        let query = try QueryDescription(
            schema: nil, table: "tasks",
            parameters: [
                QueryParameter(name: "select", value: "id,title"),
                QueryParameter(name: "or", value: #"(title.eq."a,b",id.in.(1,2))"#),
                QueryParameter(name: "order", value: "title.desc.nullslast"),
            ])
        #expect(QueryDescription(canonicalKey: query.canonicalKey) == query)
    }

    @Test("a stored write whose time is not a finite number is unreadable, never a write made at infinity")
    func infiniteCreationTime() throws {
        let stored = Mutation(table: "tasks", operation: .insert, rows: [["id": 1]]).persistedData()
        var text = String(decoding: stored, as: UTF8.self)
        let time = try #require(text.range(of: #""createdAt":[0-9.e+-]+"#, options: .regularExpression))
        text.replaceSubrange(time, with: #""createdAt":1.5e400"#)
        #expect(throws: (any Error).self) { try Mutation(persistedData: Data(text.utf8)) }
    }
}
