import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// Today's code opens a store file of every schema version, each written by the code of its
/// version (`Fixtures/`, made by `scripts/make-store-fixtures.sh`): nothing is lost, the queue
/// replays exactly once and in order, and the file after migration holds, column by column, what
/// it held before.
@Suite("Store files of every schema version", .timeLimit(.minutes(10)))
struct StoreFixtureMigrationTests {
    /// The schema versions with a fixture. A new schema version adds its number here, once the
    /// script has made its files.
    static let versions = [1, 2, 3, 4, 5, 6, 7]

    typealias Scenario = StoreFixtureScenario

    @Test("every schema version has a fixture")
    func everyVersionHasAFixture() {
        #expect(Self.versions == Array(1...StoreSchema.currentVersion))
    }

    @Test("after migration every table holds, column by column, what the file held", arguments: versions)
    func migratedDump(version: Int) async throws {
        let fixture = StoreFixtureFile(version: version)
        let held = try fixture.manifest()
        let folder = try fixture.copy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(Storage.fileName).path
        // The file is what its manifest says the code of its version wrote.
        #expect(held.version == version)
        #expect(try StoreDump.read(path: path) == held)

        let store = try Store.open(.directory(folder))
        await store.close()
        let migrated = try StoreDump.read(path: path)
        let expected = try MigratedDump.expected(from: held, layout: SQLiteConnection(path: path))
        #expect(migrated.version == StoreSchema.currentVersion)
        #expect(migrated.tables.keys.sorted() == expected.tables.keys.sorted())
        for (name, table) in expected.tables.sorted(by: { $0.key < $1.key }) {
            #expect(migrated.tables[name]?.columns == table.columns, "the columns of \(name)")
            for column in table.columns {
                #expect(migrated.tables[name]?.column(column) == table.column(column), "\(name).\(column)")
            }
        }
    }

    @Test(
        "the store reads back every list, write, rejection, accepted id and the session", arguments: versions)
    func storeReadsEverything(version: Int) async throws {
        let folder = try StoreFixtureFile(version: version).copy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store.open(.directory(folder))

        // The lists are the cache's owner's: the user whose session the file holds.
        let lists = store.lists(of: Scenario.owner)
        for (read, rows) in Scenario.lists {
            let list = try #require(try await lists.list(key: read.query.canonicalKey))
            #expect(list.rows == rows)
            #expect(!list.isStale)
        }
        let first = try #require(try await lists.list(key: Scenario.lists[0].read.query.canonicalKey))
        let text = JSONText.string(.array(first.rows.map(\.json)))
        #expect(text.contains("9007199254740993") && text.contains("1.50"))

        let queue = try await store.queue.all()
        #expect(queue.map(\.mutation.id) == Scenario.queued)
        #expect(queue.map(\.mutation.operation) == [.insert, .update, .delete, .upsert])
        #expect(queue.map(\.mutation.attempts) == [1, 0, 0, 0])
        #expect(queue.allSatisfy { $0.mutation.ownerID == Scenario.owner && $0.mutation.isReadable })
        // Version 1 had no in-flight marker: its write sent once is known only by its attempt.
        #expect(store.interruptedWrites == (version >= 2 ? [Scenario.inFlight] : []))
        #expect(queue.map(\.isInFlight) == [version >= 2, false, false, false])

        let replayed = try await store.replayLog.writes(table: "tasks")
        #expect(replayed.map(\.mutation.id) == Scenario.replayed)
        let rejected = try await store.rejected.all()
        #expect(rejected.map(\.mutation.id) == [Scenario.rejected])
        #expect(rejected.first?.details.status == 403 && rejected.first?.details.code == "42501")
        // Accepted ids are kept from version 3 on.
        for id in Scenario.replayed {
            #expect((try await store.accepted.accepted(id) != nil) == (version >= 3))
        }
        #expect(try await store.account.owner() == Scenario.owner)
        #expect(try await store.account.session() == Scenario.session)
        await store.close()
    }

    @Test(
        "the client shows it all offline, then replays the queue exactly once, in order", arguments: versions)
    func clientReplaysOnceInOrder(version: Int) async throws {
        let folder = try StoreFixtureFile(version: version).copy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = InMemoryPostgREST(tables: Scenario.server)
        let (network, online) = AsyncStream.makeStream(of: Bool.self)
        online.yield(false)
        let fixture = try await ClientFixture(storage: .directory(folder), signedInAs: nil, server: server) {
            $0.networkAvailability = network
            // The fixtures' writes were made on fixed days long ago: any age may be sent.
            $0.maxWriteAge = nil
        }
        let client = fixture.client

        let session = try await firstValue(of: client.session) { $0 != .restoring }
        #expect(session == .signedIn(Scenario.session))
        let tasks = try await firstValue(of: client.pendingMutations(table: "tasks")) { _ in true }
        #expect(tasks.map(\.id) == Array(Scenario.queued.prefix(3)))
        let notes = try await firstValue(of: client.pendingMutations(table: "notes")) { _ in true }
        #expect(notes.map(\.id) == [Scenario.queued[3]])
        let rejected = try await firstValue(of: client.rejectedMutations()) { _ in true }
        #expect(rejected.map(\.id) == [Scenario.rejected])
        #expect(rejected.first?.error.code == "42501")
        for (list, ids) in zip(Scenario.lists.map(\.read), Self.offlineIDs) {
            let read = ReadQuery(client: client, query: list.query)
            let snapshot = try await firstValue(of: read.snapshots()) { $0.result != nil }
            let shown = snapshot.result?.rows.map { $0["id"]?.stringValue ?? "" }
            #expect(snapshot.isFromCache && snapshot.hasPendingMutations)
            #expect(shown == ids, "\(list.query.canonicalKey)")
        }
        let accepted = try await client.outcome(of: Scenario.replayed[0])
        if version >= 3 {
            guard case .accepted = accepted else {
                Issue.record("w1 is \(accepted)")
                return
            }
        } else {
            #expect(accepted == .unknown)
        }
        #expect(fixture.writes.isEmpty)

        online.yield(true)
        _ = try await firstValue(of: client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.map(Self.line) == Scenario.replayRequests)
        // The write sent before the crash was applied then: the server refused it again as a
        // duplicate, the client read the row back, found what it sent, and settled it accepted:
        // not applied twice, nor rejected.
        #expect(fixture.gets.contains { $0.url.query?.contains("id=eq.t6") == true })
        let outcome = try await client.outcome(of: Scenario.inFlight)
        guard case .accepted = outcome else {
            Issue.record("the write in flight is \(outcome)")
            return
        }
        #expect(await server.rows(of: "tasks") == Scenario.serverAfterReplay["tasks"])
        #expect(await server.rows(of: "notes") == Scenario.serverAfterReplay["notes"])
        let after = try await firstValue(of: client.rejectedMutations()) { _ in true }
        #expect(after.map(\.id) == [Scenario.rejected])
        await client.close()
        #expect(fixture.writes.map(Self.line) == Scenario.replayRequests)
    }

    /// The ids each cached list shows offline, the user's writes laid over its rows: w2 marks t1
    /// done, w5 renames t2, w6 deletes t3, w1 and w4 add t4 and t6, w7 adds n2.
    static let offlineIDs = [["t1", "t2", "t4", "t6"], ["t2", "t4", "t6"], ["n1", "n2"]]

    /// A request as its method, path and query.
    static func line(_ request: HTTPRequest) -> String {
        "\(request.method.rawValue) \(request.url.path)" + (request.url.query.map { "?" + $0 } ?? "")
    }
}
