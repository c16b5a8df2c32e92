import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// Differential: random queues of inserts, updates and deletes over three tables, some refused
/// for good, replayed one request at a time and with the tables overlapping, under random
/// interleavings. Both must leave every table the same and reject the same writes.
@Suite("Replay with tables in flight at once: differential", .timeLimit(.minutes(10)))
struct ClientReplayOverlapDifferentialTests {
    static let tables = ["a", "b", "c"]

    /// What a drain left: each table's rows in the server's order (`id:v`), and the rejected
    /// writes' rows (`table id`).
    struct Outcome: Equatable {
        var rows: [String: [String]]
        var rejected: Set<String>
    }

    /// One random queue: runs of inserts into a table, now and then an update or a delete of
    /// a row inserted earlier into it; rows whose id is a multiple of 7 break a check constraint.
    static func workload(seed: UInt64) -> [(table: String, id: Int, kind: Int)] {
        var random = SeededRandom(seed: seed)
        var writes: [(table: String, id: Int, kind: Int)] = []
        var inserted: [String: [Int]] = [:]
        var next = 1
        while writes.count < 80 {
            let table = random.pick(tables)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                if let rows = inserted[table], !rows.isEmpty, random.chance(20) {
                    writes.append((table, random.pick(rows), random.chance(50) ? 1 : 2))
                } else {
                    writes.append((table, next, 0))
                    inserted[table, default: []].append(next)
                    next += 1
                }
            }
        }
        return writes
    }

    private static func drain(seed: UInt64, tablesInFlight: Int) async throws -> Outcome {
        let fixture = try await ClientFixture(
            tables: Dictionary(uniqueKeysWithValues: tables.map { ($0, [Row]()) })
        ) { $0.replayBatching = ReplayBatching(tablesInFlight: tablesInFlight) }
        await fixture.client.disableNetwork()
        for (table, id, kind) in workload(seed: seed) {
            let query = fixture.client.from(table)
            switch kind {
            case 0: _ = try await query.insert(["id": .number(JSONNumber(id)), "v": "x"] as Row).execute()
            case 1: _ = try await query.update(["v": "y"] as Row).eq("id", value: id).execute()
            default: _ = try await query.delete().eq("id", value: id).execute()
            }
        }
        let random = Mutex(SeededRandom(seed: seed &+ 1))
        fixture.probe.answer { request in
            // A random interleaving of the tables' requests.
            for _ in 0..<random.withLock({ Int.random(in: 0...20, using: &$0) }) { await Task.yield() }
            let refused = request.bodyRows.contains { row in
                if case .number(let id)? = row["id"], let value = id.intValue { return value % 7 == 0 }
                return false
            }
            return refused ? errorResponse(status: 400, code: "23514", message: "check") : nil
        }
        await fixture.client.enableNetwork()
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        var rows: [String: [String]] = [:]
        for table in tables {
            rows[table] = await fixture.server.rows(of: table).map {
                "\($0["id"] ?? .null):\($0["v"] ?? .null)"
            }
        }
        let rejected = try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }
        await fixture.client.close()
        return Outcome(
            rows: rows, rejected: Set(rejected.map { "\($0.table) \($0.values.first?["id"] ?? .null)" }))
    }

    @Test("overlapping tables leave every table as one request at a time does", arguments: 1...6)
    func sameOutcome(seed: UInt64) async throws {
        let serial = try await Self.drain(seed: seed, tablesInFlight: 1)
        let overlapping = try await Self.drain(seed: seed, tablesInFlight: 3)
        #expect(!serial.rejected.isEmpty)
        #expect(overlapping == serial)
    }
}
