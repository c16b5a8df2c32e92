import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite("Refresh lifecycle through the client", .timeLimit(.minutes(10)))
struct ClientRefreshTests {
    @Test("a live read's refresh reads Refreshing, then Idle once the server answers")
    func refreshingThenIdle() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        let stream = fixture.client.from("tasks").select().snapshots()
        let first = try await firstValue(of: stream) { _ in true }
        #expect(first.refresh == .refreshing)
        let done = try await firstValue(of: stream) { $0.refresh == .idle }
        #expect(done.column("id") == ["1"])
        await fixture.client.close()
    }

    @Test("a failing refresh retries after 300 ms, 900 ms and 2.4 s and reads Stalled at the fourth failure")
    func stallsAfterFourthFailure() async throws {
        let (fixture, read) = try await ClientFixture.failingTaskRead()
        let stream = read.snapshots()
        let delays: [Duration] = [.milliseconds(300), .milliseconds(900), .milliseconds(2400)]
        for (failures, delay) in delays.enumerated() {
            try await fixture.sleepers(atLeast: 1)
            #expect(fixture.gets.count == failures + 1)
            #expect(await fixture.current(read)?.refresh == .refreshing)
            fixture.clock.advance(by: delay)
        }
        let stalled = try await firstValue(of: stream) {
            if case .stalled = $0.refresh { return true }
            return false
        }
        #expect(fixture.gets.count == 4)
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.clock.sleepLog == delays + [.seconds(5)])
        #expect(stalled.isFromCache)
        // A later success ends the stall.
        fixture.probe.answer(with: nil)
        fixture.clock.advance(by: .seconds(5))
        _ = try await firstValue(of: stream) { $0.refresh == .idle }
        await fixture.client.close()
    }

    @Test("a refresh turns the transport's retries of transport failures off: it fails at once")
    func refreshSkipsTransportRetries() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        fixture.probe.answer { request in
            if request.method == .get { throw TransportError(kind: .cannotConnect) }
            return nil
        }
        let stream = fixture.client.from("tasks").select().snapshots()
        try await fixture.sleepers(atLeast: 1)
        // One request, then the refresh's own 300 ms wait: no 1 s transport retry came first.
        #expect(fixture.gets.count == 1)
        #expect(fixture.clock.sleepLog == [.milliseconds(300)])
        withExtendedLifetime(stream) {}
        await fixture.client.close()
    }

    @Test("a refresh still gets the transport's retries of a 503 after 1 s, 2 s and 4 s")
    func refreshKeepsStatusRetries() async throws {
        let (fixture, read) = try await ClientFixture.failingTaskRead(status: 503, code: "PGRST002")
        let stream = read.snapshots()
        for (attempt, delay) in [Duration.seconds(1), .seconds(2), .seconds(4)].enumerated() {
            try await fixture.sleepers(atLeast: 1)
            #expect(fixture.gets.count == attempt + 1)
            fixture.clock.advance(by: delay)
        }
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.gets.count == 4)
        #expect(fixture.gets.map { $0.headers["X-Retry-Count"] } == [nil, "1", "2", "3"])
        #expect(fixture.clock.sleepLog == [.seconds(1), .seconds(2), .seconds(4), .milliseconds(300)])
        withExtendedLifetime(stream) {}
        await fixture.client.close()
    }

    @Test(
        "disableNetwork() during the transport's wait before retrying a 503: no retry leaves, the read reads Paused"
    )
    func noStatusRetryOnceDisabled() async throws {
        let (fixture, read) = try await ClientFixture.failingTaskRead(status: 503, code: "PGRST002")
        let stream = read.snapshots()
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.gets.count == 1)
        await fixture.client.disableNetwork()
        fixture.clock.advance(by: .seconds(1))
        _ = try await firstValue(of: stream) { $0.refresh == .paused }
        #expect(fixture.gets.count == 1, "nothing is sent while the network is disabled")
        await fixture.client.close()
    }

    @Test(
        "refreshLiveReads() (the app back in the foreground) fetches a stalled read now, not when its wait ends"
    )
    func refreshLiveReadsCutsStalledWait() async throws {
        let (fixture, read) = try await ClientFixture.failingTaskRead()
        let stream = read.snapshots()
        for delay in [Duration.milliseconds(300), .milliseconds(900), .milliseconds(2_400)] {
            try await fixture.sleepers(atLeast: 1)
            fixture.clock.advance(by: delay)
        }
        _ = try await firstValue(of: stream) {
            if case .stalled = $0.refresh { return true }
            return false
        }
        try await fixture.sleepers(atLeast: 1)  // the 5 s wait
        fixture.probe.answer(with: nil)
        try await fixture.client.refreshLiveReads()
        _ = try await firstValue(of: stream) { $0.refresh == .idle }
        #expect(fixture.gets.count == 5)
        #expect(fixture.clock.now == ManualClock.Instant().advanced(by: .milliseconds(3_600)))
        await fixture.client.close()
    }

    @Test("a refresh reads Paused while the network is disabled and sends nothing")
    func pausedWhileDisabled() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        await fixture.client.disableNetwork()
        let stream = fixture.client.from("tasks").select().snapshots()
        _ = try await firstValue(of: stream) { $0.refresh == .paused }
        #expect(fixture.gets.isEmpty)
        await fixture.client.enableNetwork()
        let done = try await firstValue(of: stream) { $0.refresh == .idle }
        #expect(done.column("id") == ["1"])
        #expect(fixture.gets.count == 1)
        await fixture.client.close()
    }

    @Test("enableNetwork cuts a retry wait short with an attempt at once")
    func enableNetworkCutsWaitShort() async throws {
        let (fixture, read) = try await ClientFixture.failingTaskRead()
        let stream = read.snapshots()
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.gets.count == 1)
        fixture.probe.answer(with: nil)
        await fixture.client.enableNetwork()
        _ = try await firstValue(of: stream) { $0.refresh == .idle }
        #expect(fixture.gets.count == 2)
        #expect(fixture.clock.now == ManualClock.Instant())
        await fixture.client.close()
    }

    @Test(
        "on a cold start the refresh reads Refreshing with cached rows on screen while the session restores")
    func coldStart() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await ClientFixture(tables: ["tasks": [["id": 1]]], storage: .directory(folder))
            _ = try await first.client.from("tasks").select().fetch()
            try await first.client.insertOffline(["id": 2])
            await first.client.close()

            let gate = Gate()
            let second = try await ClientFixture.relaunched(
                in: folder, server: first.server, restoringAfter: gate
            ) {
                ClientFixture.session("user-1")
            }
            let session = try await firstValue(of: second.client.session) { _ in true }
            #expect(session == .restoring)
            let stream = second.client.from("tasks").select().snapshots()
            let snapshot = try await firstValue(of: stream) { _ in true }
            #expect(snapshot.refresh == .refreshing)
            // The cached rows, with the stored user's queued write laid over them.
            #expect(snapshot.column("id") == ["1", "2"])
            #expect(snapshot.hasPendingMutations)
            #expect(snapshot.isFromCache)
            #expect(second.probe.requests.isEmpty)
            gate.open()
            _ = try await firstValue(of: stream) { $0.refresh == .idle && !$0.hasPendingMutations }
            #expect(second.gets.allSatisfy { $0.authorization == "Bearer token-user-1" })
            #expect(second.writes.map(\.authorization) == ["Bearer token-user-1"])
            await second.client.close()
        }
    }

    @Test("trusting only signed-in answers, an empty table read signed out stays Refreshing until rows come")
    func untrustedEmptyUntilRows() async throws {
        let fixture = try await ClientFixture(
            tables: ["tasks": []], responseTrust: .authenticatedSessionOnly, signedInAs: nil)
        let log = AsyncLog<QuerySnapshot>()
        let reader = collect(fixture.client.from("tasks").select().snapshots(), into: log)
        for attempt in 1...7 {
            try await fixture.sleepers(atLeast: 1)
            #expect(fixture.gets.count == attempt)
            fixture.clock.advance(by: .seconds(60))
        }
        try await fixture.sleepers(atLeast: 1)
        #expect(fixture.clock.sleepLog.allSatisfy { $0 <= .seconds(60) })
        #expect(fixture.clock.sleepLog.suffix(2) == [.seconds(60), .seconds(60)])
        #expect(log.values.allSatisfy { $0.refresh == RefreshState.refreshing && $0.result == nil })
        await fixture.server.setRows([["id": 1]], of: "tasks")
        fixture.clock.advance(by: .seconds(60))
        try await log.waitForLatest { $0.refresh == .idle }
        #expect(log.values.last?.column("id") == ["1"])
        reader.cancel()
        await fixture.client.close()
    }

    @Test("trusting only signed-in answers, an empty table read signed out settles once a user signs in")
    func untrustedEmptyUntilSignIn() async throws {
        let fixture = try await ClientFixture(
            tables: ["tasks": []], responseTrust: .authenticatedSessionOnly, signedInAs: nil)
        let read = fixture.client.from("tasks").select()
        let stream = read.snapshots()
        try await fixture.sleepers(atLeast: 1)
        #expect(await fixture.current(read)?.refresh == .refreshing)
        try await fixture.client.signIn(ClientFixture.session("user-1"))
        let done = try await firstValue(of: stream) { $0.refresh == .idle }
        #expect(done.result?.rows == [])
        #expect(fixture.gets.last?.authorization == "Bearer token-user-1")
        await fixture.client.close()
    }

    @Test("a stall's cause describes the failure without the URL, filter values or tokens")
    func stallCauseIsSafe() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        fixture.probe.answer { request in
            guard request.method == .get else { return nil }
            return errorResponse(
                status: 500, code: "XX000",
                message: "failed: \(request.url.absoluteString) \(request.authorization ?? "")",
                details: "title = secret-title")
        }
        let stream = fixture.client.from("tasks").select().eq("title", value: "secret-title").snapshots()
        for delay in [Duration.milliseconds(300), .milliseconds(900), .milliseconds(2400)] {
            try await fixture.sleepers(atLeast: 1)
            fixture.clock.advance(by: delay)
        }
        let stalled = try await firstValue(of: stream) {
            if case .stalled = $0.refresh { return true }
            return false
        }
        guard case .stalled(let cause) = stalled.refresh else { return }
        for text in [cause.description, cause.localizedDescription, "\(cause)"] {
            #expect(!text.contains("example.invalid"))
            #expect(!text.contains("secret-title"))
            #expect(!text.contains("token-user-1"))
            #expect(!text.contains("anon-key"))
            #expect(!text.isEmpty)
        }
        #expect((cause.underlying as? PostgrestError)?.status == 500)
        await fixture.client.close()
    }
}
