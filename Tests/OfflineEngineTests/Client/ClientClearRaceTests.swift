import Foundation
import Testing

@testable import OfflineEngine

@Suite("Clearing while writes are queued", .timeLimit(.minutes(10)))
struct ClientClearRaceTests {
    @Test("a write queued while the local data is cleared is either wiped everywhere or kept everywhere")
    func writesRacingClear() async throws {
        for round in 0..<50 {
            let fixture = try await ClientFixture()
            let client = fixture.client
            await client.disableNetwork()
            _ = try await client.from("tasks").insert(["id": -1] as Row).execute()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.clearLocalData() }
                for index in 0..<5 {
                    group.addTask {
                        let row: Row = ["id": .number(JSONNumber(round * 10 + index))]
                        _ = try await client.from("tasks").insert(row).execute()
                    }
                }
                try await group.waitForAll()
            }
            let inMemory = try await firstValue(of: client.pendingMutations(table: "tasks")) { _ in true }
                .map(\.id)
            let onDisk = try await client.store.queue.all().map(\.mutation.id)
            #expect(inMemory == onDisk, "round \(round)")
            await client.close()
        }
    }
}
