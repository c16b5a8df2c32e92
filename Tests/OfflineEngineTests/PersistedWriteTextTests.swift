import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// The store's text of a write, written member by member, against the text of the same write
/// built as a JSON value and written with sorted keys: the bytes must not differ, or a store
/// written by one version would hold writes of two shapes.
@Suite("The stored text of a write", .timeLimit(.minutes(10)))
struct PersistedWriteTextTests {
    @Test("the stored writes of the fuzz seeds keep their bytes")
    func seedsKeepTheirBytes() throws {
        for data in FuzzSeeds.storedWrites() {
            let write = try Mutation(persistedData: data)
            #expect(PersistedWriteText.data(write) == JSONText.data(PersistedWriteValue.json(write)))
        }
    }

    @Test("generated writes give the bytes of their JSON value, and read back equal", arguments: 0..<4)
    func generatedWritesMatch(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let write = Self.write(&random)
            let data = PersistedWriteText.data(write)
            #expect(data == JSONText.data(PersistedWriteValue.json(write)))
            #expect(try Mutation(persistedData: data) == write)
        }
    }

    /// A write with every optional member present or absent at random.
    private static func write(_ random: inout SeededRandom) -> Mutation {
        let texts = ["milk", "", "quote \" and \\ slash", "line\nbreak", "\u{1F95B}", "tab\there", "\u{01}"]
        let row: Row = [
            random.pick(["id", "ID", "a b", "é"]): .string(random.pick(texts)),
            "n": .number(JSONNumber(Int.random(in: -5...5, using: &random))),
            "nested": random.chance(50) ? ["x": [1, nil, true]] : nil,
        ]
        let filter = Filter.condition(
            FilterCondition(
                column: "id", op: random.pick([.eq, .in, .is]),
                operand: random.chance(50) ? .value(random.pick(texts)) : .list(["1", random.pick(texts)]),
                negated: random.chance(30)))
        var write = Mutation(
            ownerID: random.chance(70) ? random.pick(["user", "other \"one\""]) : nil,
            schema: random.chance(30) ? "app" : nil, table: random.pick(["tasks", "t\"q", "лист"]),
            operation: random.pick([.insert, .upsert, .update, .delete]),
            rows: Array(repeating: row, count: Int.random(in: 0...2, using: &random)),
            filters: random.chance(50) ? [filter, .unparsed(key: "k", value: random.pick(texts))] : [],
            onConflict: random.chance(40) ? ["id", random.pick(texts)] : nil,
            ignoreDuplicates: random.chance(50), useDefaultForMissing: random.chance(50),
            returning: random.chance(40) ? random.pick(["*", "id,title"]) : nil,
            createdAt: Date(
                timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &random)) / 7),
            attempts: Int.random(in: 0...9, using: &random))
        write.expectsRows = random.chance(30)
        if random.chance(30) { write.shownOnlyColumns = ["z", random.pick(texts), "a"] }
        return write
    }
}
