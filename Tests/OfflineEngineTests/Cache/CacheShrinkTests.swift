import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite(
    "Cache budget: a lowered budget shrinks the store, and evicted rows leave the files",
    .timeLimit(.minutes(10)))
struct CacheShrinkTests {
    /// A client on `folder` whose cache holds `reads` lists of 20 padded items, one per read
    /// (each filters on another id).
    private static func filled(_ folder: URL, reads: Int) async throws -> ClientFixture {
        let server = InMemoryPostgREST(tables: ["items": paddedRows(20, padding: 500)])
        let first = try await ClientFixture(storage: .directory(folder), server: server)
        for n in 1...reads {
            _ = try await first.client.from("items").select().neq("id", value: -n).fetch()
        }
        return first
    }

    @Test("lowering the budget shrinks an existing store's files at the next launch")
    func lowerBudgetShrinksTheStore() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await Self.filled(folder, reads: 300)
            let filled = try await first.client.cacheSize()
            #expect(filled > 3_000_000)
            await first.client.close()
            let before = try storeFileBytes(in: folder)
            #expect(before >= filled)

            let budget = 500_000
            let second = try await ClientFixture(
                storage: .directory(folder), server: first.server, configure: { $0.cache.budget = budget })
            let size = try await second.client.cacheSize()
            #expect(size <= budget)
            #expect(size > budget / 2, "the launch pass stops at 90% of the budget: \(size) bytes")
            await second.client.close()
            let after = try storeFileBytes(in: folder)
            #expect(after < before / 4, "the files shrank from \(before) to \(after) bytes")
            #expect(after < budget * 2)
        }
    }

    @Test("a store made before incremental vacuum shrinks too (it is rebuilt once)")
    func oldStoreShrinks() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await Self.filled(folder, reads: 100)
            await first.client.close()
            // As a store of an older version: auto_vacuum off.
            do {
                let raw = try SQLiteConnection(path: Storage.directory(folder).files![0].path)
                try raw.execute(script: "PRAGMA auto_vacuum = NONE; VACUUM")
                #expect(try raw.query("PRAGMA auto_vacuum") { $0.integer(0) } == [0])
            }
            let before = try storeFileBytes(in: folder)

            let second = try await ClientFixture(
                storage: .directory(folder), server: first.server, configure: { $0.cache.budget = 100_000 })
            #expect(try await second.client.cacheSize() <= 100_000)
            await second.client.close()
            #expect(try storeFileBytes(in: folder) < before / 4)
        }
    }

    @Test("purge gives the space back, and no evicted row is readable in the files")
    func purgeLeavesNoEvictedRow() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let fixture = try await ClientFixture(
                tables: ["items": paddedRows(20, padding: 200, marker: "EVICTED-SECRET")],
                storage: .directory(folder))
            for n in 1...50 {
                _ = try await fixture.client.from("items").select().neq("id", value: -n).fetch()
            }
            #expect(try !filesContaining("EVICTED-SECRET-7-", in: folder).isEmpty)
            let before = try storeFileBytes(in: folder)
            #expect(try await fixture.client.purge() == 50)
            #expect(try await fixture.client.cacheSize() == 0)
            #expect(try filesContaining("EVICTED-SECRET", in: folder) == [])
            #expect(try storeFileBytes(in: folder) < before / 2)
            await fixture.client.close()
        }
    }
}
