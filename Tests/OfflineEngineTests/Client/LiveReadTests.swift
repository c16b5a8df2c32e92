import Foundation
import Testing

@testable import OfflineEngine

@Suite("Live reads")
struct LiveReadTests {
    @Test("two readers of one query both see every change")
    func twoReaders() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1, "title": "a"]]])
        let query = fixture.client.from("tasks").select()
        let first = query.snapshots()
        let second = query.snapshots()
        _ = try await firstValue(of: first) { $0.refresh == .idle && $0.column("title") == ["a"] }
        _ = try await firstValue(of: second) { $0.refresh == .idle && $0.column("title") == ["a"] }
        _ = try await fixture.client.from("tasks").insert(["id": 2, "title": "b"] as Row).execute()
        _ = try await firstValue(of: first) { $0.column("title") == ["a", "b"] }
        _ = try await firstValue(of: second) { $0.column("title") == ["a", "b"] }
        await fixture.client.close()
    }
}
