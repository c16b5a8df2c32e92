import Foundation
import Testing

@testable import OfflineEngine

/// A write made offline is checked without building its request (`RequestBuilder.check`): it
/// must refuse exactly what building the request refuses, so nothing that can never be sent is
/// queued and nothing that can is refused.
@Suite("Checking a write before it is queued", .timeLimit(.minutes(10)))
struct RequestCheckTests {
    private static let endpoint = RESTEndpoint(
        url: URL(string: "https://abc.supabase.co")!, apiKey: "anon-key")

    private static func condition(_ column: String, _ value: String) -> Filter {
        .condition(FilterCondition(column: column, op: .eq, operand: .value(value)))
    }

    /// Writes both ways of checking must agree on: well-formed ones and one of each refusal.
    private static let writes: [(String, Mutation)] = [
        ("an insert", Mutation(table: "tasks", operation: .insert, rows: [["id": 1, "title": "a"]])),
        (
            "a bulk insert with other keys per row",
            Mutation(table: "tasks", operation: .insert, rows: [["id": 1], ["id": 2, "title": "b"]])
        ),
        (
            "an update by key",
            Mutation(
                table: "tasks", operation: .update, rows: [["done": true]], filters: [condition("id", "1")])
        ),
        ("a delete", Mutation(table: "tasks", operation: .delete, filters: [condition("id", "1")])),
        (
            "a write to another schema",
            Mutation(schema: "audit", table: "log", operation: .insert, rows: [["a": 1]])
        ),
        ("an empty table name", Mutation(table: "", operation: .insert, rows: [["id": 1]])),
        ("a table name with a slash", Mutation(table: "a/b", operation: .insert, rows: [["id": 1]])),
        ("an insert of no rows", Mutation(table: "tasks", operation: .insert)),
        ("an update of two rows", Mutation(table: "tasks", operation: .update, rows: [["a": 1], ["a": 2]])),
        ("a schema with a comma", Mutation(schema: "a,b", table: "t", operation: .insert, rows: [["id": 1]])),
        (
            "a bulk insert with a key that cannot be written",
            Mutation(table: "tasks", operation: .insert, rows: [["id": 1], ["\u{0}": 2]])
        ),
        (
            "a returning list that cannot be written",
            Mutation(table: "tasks", operation: .insert, rows: [["id": 1]], returning: "a\u{0}")
        ),
        (
            "an unreadable stored write",
            Mutation(
                storedAs: Data("not json".utf8), id: UUID(), ownerID: nil, schema: nil, table: "tasks",
                operation: .delete, createdAt: Date(), attempts: 0)
        ),
    ]

    @Test(
        "the check refuses a write exactly when building its request does, with the same error",
        arguments: writes)
    func checkAgreesWithTheRequest(_ name: String, _ write: Mutation) {
        let built = Result {
            try RequestBuilder.request(for: write, endpoint: Self.endpoint, accessToken: nil)
        }
        let checked = Result { try RequestBuilder.check(write, endpoint: Self.endpoint) }
        switch (built, checked) {
        case (.success, .success):
            break
        case (.failure(let buildError), .failure(let checkError)):
            #expect(String(describing: buildError) == String(describing: checkError), "\(name)")
        default:
            Issue.record("\(name): building \(built), checking \(checked)")
        }
    }

    @Test("the writes above include both kinds: some are refused, some are not")
    func bothKindsAreCovered() {
        let refused = Self.writes.filter { _, write in
            (try? RequestBuilder.check(write, endpoint: Self.endpoint)) == nil
        }
        #expect(refused.count >= 6 && refused.count < Self.writes.count)
    }
}
