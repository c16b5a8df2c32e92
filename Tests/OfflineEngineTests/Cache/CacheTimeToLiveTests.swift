import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite(
    "Cache time to live: an expired list is fetched again before it reads as fresh", .timeLimit(.minutes(10)))
struct CacheTimeToLiveTests {
    private static let rates = ["rates": paddedRows(2, padding: 20), "tasks": paddedRows(2, padding: 20)]

    /// Rates live a minute; other tables never expire.
    private static func minuteForRates(_ configuration: inout Configuration) {
        configuration.cache.timeToLive = { query in query.table == "rates" ? .seconds(60) : nil }
    }

    @Test("past its time to live a live read's list reads isFromCache, is fetched again, then reads fresh")
    func liveReadFetchesAgainAtExpiry() async throws {
        let fixture = try await ClientFixture(tables: Self.rates, configure: Self.minuteForRates)
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(fixture.client.from("rates").select().snapshots(), into: log)
        let answered = try await Self.next(in: log, after: 0) { !$0.isFromCache && $0.refresh == .idle }
        // The expiry's timer sleeps on the client's clock.
        try await fixture.sleepers(atLeast: 1)
        fixture.clock.advance(by: .seconds(59))
        #expect(log.values.last?.isFromCache == false, "not yet expired")
        // The server is out of reach: the expired list stands as the device's rows (a reader of
        // keep-newest snapshots would otherwise skip it on a busy machine).
        await fixture.server.setReachable(false)
        let gets = fixture.gets.count
        fixture.clock.advance(by: .seconds(1))
        let expired = try await Self.next(in: log, after: answered) { $0.isFromCache }
        #expect(log.values[expired].result?.rows.count == 2, "the rows stay on screen")
        #expect(log.values[answered..<expired].allSatisfy { !$0.isFromCache })
        // Back in reach: the retry fetches it again, and only its answer reads as fresh.
        await fixture.server.setReachable(true)
        await fixture.client.syncNow()
        let fresh = try await Self.next(in: log, after: expired) { !$0.isFromCache && $0.refresh == .idle }
        #expect(log.values[expired..<fresh].allSatisfy { $0.isFromCache })
        #expect(fixture.gets.count > gets, "fetched again")
        reader.cancel()
        await reader.value
        await fixture.client.close()
    }

    @Test("a table without a time to live never expires on the clock")
    func noTimeToLiveNoTimer() async throws {
        let fixture = try await ClientFixture(tables: Self.rates, configure: Self.minuteForRates)
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(fixture.client.from("tasks").select().snapshots(), into: log)
        _ = try await Self.next(in: log, after: 0) { !$0.isFromCache && $0.refresh == .idle }
        #expect(fixture.clock.sleeperCount == 0)
        reader.cancel()
        await reader.value
        await fixture.client.close()
    }

    @Test(
        "a list whose time to live ended while the app was away is removed at launch; one within it stays")
    func expiredAtLaunch() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let app = Launches(folder: folder)
            let first = try await app.launch()
            _ = try await first.client.from("rates").select().fetch()
            _ = try await first.client.from("rates").select("id").fetch()
            _ = try await first.client.from("tasks").select().fetch()
            await first.client.close()

            // Thirty seconds later: nothing expired.
            app.wallTime.set(secondsAfterStart: 30)
            await app.server.setReachable(false)
            let second = try await app.launch()
            _ = try await second.client.cacheSize()
            let kept = try await second.client.from("rates").select().fetch()
            #expect(kept.isFromCache && kept.rows.count == 2)
            await second.client.close()

            // Two minutes later: both rates lists expired and are gone; tasks stays.
            app.wallTime.set(secondsAfterStart: 120)
            let third = try await app.launch()
            _ = try await third.client.cacheSize()
            let store = third.client.engine.state.store
            #expect(try await store.lists(of: "user-1").all(table: "rates").isEmpty)
            #expect(try await store.lists(of: "user-1").all(table: "tasks").count == 1)
            await #expect(throws: (any Error).self) { try await third.client.from("rates").select().fetch() }
            await third.client.close()
        }
    }

    @Test(
        "an expired list behind a queued write stays, stale, and a live read fetches it before it reads fresh"
    )
    func expiredPinnedListIsFetchedAgain() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let app = Launches(folder: folder)
            let first = try await app.launch()
            _ = try await first.client.from("rates").select().fetch()
            try await first.client.insertOffline(["id": 7, "body": "queued"], into: "rates")
            await first.client.close()

            app.wallTime.set(secondsAfterStart: 120)
            let second = try await app.launch()
            _ = try await second.client.cacheSize()
            let key = second.client.from("rates").select().query.canonicalKey
            let stored = try #require(
                try await second.client.engine.state.store.lists(of: "user-1").list(key: key))
            #expect(stored.rows.count == 2, "kept: a queued write is laid over it")
            await app.server.setRows(paddedRows(3, padding: 20), of: "rates")
            let log = AsyncLog<QuerySnapshot>()
            let reader = collect(second.client.from("rates").select().snapshots(), into: log)
            let fresh = try await Self.next(in: log, after: 0) { !$0.isFromCache }
            #expect(log.values[..<fresh].allSatisfy { $0.isFromCache })
            #expect(log.values[fresh].result?.rows.count ?? 0 >= 3, "the server's rows")
            reader.cancel()
            await reader.value
            await second.client.close()
        }
    }

    /// The app launched on one folder and one server, again and again, at the wall time
    /// `wallTime` sets.
    private struct Launches {
        let folder: URL
        let server = InMemoryPostgREST(tables: CacheTimeToLiveTests.rates)
        let wallTime = WallTime()

        func launch() async throws -> ClientFixture {
            try await CacheTimeToLiveTests.launch(folder, server, wallTime)
        }
    }

    /// A client on the store in `folder`, rates living a minute, at the wall time `wallTime` sets.
    private static func launch(_ folder: URL, _ server: InMemoryPostgREST, _ wallTime: WallTime) async throws
        -> ClientFixture
    {
        try await ClientFixture(
            storage: .directory(folder), server: server,
            configure: { configuration in
                minuteForRates(&configuration)
                configuration.now = { wallTime.now }
            })
    }

    /// The index of the first snapshot at or after `start` that meets `condition`.
    private static func next(
        in log: AsyncLog<QuerySnapshot>, after start: Int,
        _ condition: @escaping @Sendable (QuerySnapshot) -> Bool
    ) async throws -> Int {
        try await withTimeout(30) {
            var values = log.values
            while true {
                if let found = values.indices.first(where: { $0 >= start && condition(values[$0]) }) {
                    return found
                }
                try Task.checkCancellation()
                values = try await log.values(atLeast: values.count + 1)
            }
        }
    }
}
