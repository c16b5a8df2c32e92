import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

@Suite("Session, clearing and closing", .timeLimit(.minutes(10)))
struct ClientSessionTests {
    @Test(
        "the session stream starts restoring, then settles to the stored session when the app's restore throws"
    )
    func sessionRestores() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let first = try await ClientFixture(storage: .directory(folder))
            await first.client.close()
            let gate = Gate()
            let second = try await ClientFixture.relaunched(
                in: folder, server: first.server, restoringAfter: gate
            ) {
                throw RestoreFailure()
            }
            let log = AsyncLog<SessionState>()
            let reader = collect(second.client.session, into: log)
            #expect(try await log.values(atLeast: 1) == [.restoring])
            gate.open()
            let settled = try await log.values(atLeast: 2)
            #expect(settled.last?.userID == "user-1")
            reader.cancel()
            await second.client.close()
        }
    }

    @Test("a different user signing in marks every list stale and fetches it again with the new token")
    func newOwnerRefetches() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]], "notes": [["id": 5]]]) {
            $0.sharing = .handOver
        }
        let tasks = fixture.client.from("tasks").select().snapshots()
        let notes = fixture.client.from("notes").select().snapshots()
        _ = try await firstValue(of: tasks) { $0.refresh == .idle }
        _ = try await firstValue(of: notes) { $0.refresh == .idle }
        await fixture.server.setRows([["id": 2]], of: "tasks")
        try await fixture.client.signIn(ClientFixture.session("user-2"))
        _ = try await firstValue(of: tasks) { $0.refresh == .idle && $0.column("id") == ["2"] }
        let gets = try await fixture.probe.gets(atLeast: 4)
        #expect(gets.suffix(2).allSatisfy { $0.authorization == "Bearer token-user-2" })
        let lists = try await fixture.client.store.lists(of: "user-2").all(table: "tasks")
        #expect(!lists.isEmpty && lists.allSatisfy { !$0.isStale })
        await fixture.client.close()
    }

    @Test(
        "clearLocalData wipes cached lists, the queue, the replay log, rejected writes and the stored session"
    )
    func clearWipesEverything() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]], storage: .directory(folder))
            _ = try await fixture.client.from("tasks").select().fetch()
            try await fixture.client.insertOffline(["id": 2])
            _ = try await fixture.client.from("tasks").insert(["id": 3] as Row).execute()
            fixture.probe.answer { request in
                request.bodyRows.contains { $0["id"] == 3 }
                    ? errorResponse(status: 400, code: "PGRST102") : nil
            }
            await fixture.client.enableNetwork()
            _ = try await firstValue(of: fixture.client.rejectedMutations()) { $0.count == 1 }
            #expect(try await fixture.client.store.replayLog.writes(table: "tasks").count == 1)
            try await fixture.client.insertOffline(["id": 4])

            try await fixture.client.clearLocalData()
            let store = fixture.client.store
            #expect(try await store.lists(of: "user-1").all(table: "tasks").isEmpty)
            #expect(try await store.queue.all().isEmpty)
            #expect(try await store.replayLog.writes(table: "tasks").isEmpty)
            #expect(try await store.rejected.all().isEmpty)
            #expect(try await store.account.session() == nil)
            #expect(try await firstValue(of: fixture.client.session) { _ in true } == .signedOut)
            #expect(try await firstValue(of: fixture.client.pendingMutationCount()) { _ in true } == 0)
            #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
            await #expect(throws: ClientError.notCached) {
                _ = try await fixture.client.from("tasks").select().fetch()
            }
            await fixture.client.close()

            let reopened = try await ClientFixture(
                storage: .directory(folder), signedInAs: nil, server: fixture.server, probe: ServerProbe())
            #expect(
                try await firstValue(of: reopened.client.session) { $0 != SessionState.restoring }
                    == SessionState.signedOut)
            #expect(try await firstValue(of: reopened.client.pendingMutationCount()) { _ in true } == 0)
            await reopened.client.close()
        }
    }

    @Test("close completes the streams being iterated, without an error")
    func closeCompletesStreams() async throws {
        let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]])
        let client = fixture.client
        let snapshots = client.from("tasks").select().snapshots()
        _ = try await firstValue(of: snapshots) { $0.refresh == .idle }
        let readers: [Task<Bool, Never>] = [
            Self.drain(snapshots), Self.drain(client.session), Self.drain(client.pendingMutationCount()),
            Self.drain(client.rejectedMutations()), Self.drain(client.pendingMutations(table: "tasks")),
            Self.drain(client.connectivity),
        ]
        let key = fixture.client.from("tasks").select().query.canonicalKey
        try await eventually { fixture.client.liveReaders(of: key) == 1 }
        await client.close()
        for reader in readers {
            #expect(try await withTimeout(30) { await reader.value })
        }
    }

    /// Reads a stream to its end; true when it ended without an error.
    static func drain<S: AsyncSequence & Sendable>(_ stream: S) -> Task<Bool, Never> {
        Task { await firstError(stream) == nil }
    }

    @Test("a stream or call asked for after close fails with ClientError.closed")
    func afterClose() async throws {
        let fixture = try await ClientFixture()
        let client = fixture.client
        await client.close()
        let errors: [(any Error)?] = [
            await Self.firstError(client.from("tasks").select().snapshots()),
            await Self.firstError(client.session),
            await Self.firstError(client.pendingMutationCount()),
            await Self.firstError(client.rejectedMutations()),
            await Self.firstError(client.pendingMutations(table: "tasks")),
            await Self.firstError(client.connectivity),
        ]
        for error in errors {
            #expect(error as? ClientError == ClientError.closed)
        }
        await #expect(throws: ClientError.closed) { _ = try await client.from("tasks").select().fetch() }
        await #expect(throws: ClientError.closed) {
            _ = try await client.from("tasks").insert(["id": 1] as Row).execute()
        }
    }

    static func firstError<S: AsyncSequence & Sendable>(_ stream: S) async -> (any Error)? {
        do {
            for try await _ in stream {}
            return nil
        } catch {
            return error
        }
    }

    @Test("a write under way when close is called ends as it would offline: sent or queued, never cancelled")
    func writeUnderwayAtClose() async throws {
        let fixture = try await ClientFixture()
        let gate = Gate()
        fixture.probe.answer { request in
            if request.method == .post { await gate.wait() }
            return nil
        }
        let client = fixture.client
        let first = Task { try await client.from("tasks").insert(["id": 1] as Row).execute().outcome }
        _ = try await gate.arrivals.values(atLeast: 1)
        let second = Task { try await client.from("tasks").insert(["id": 2] as Row).execute().outcome }
        try await eventually {
            fixture.client.writeWaitsBehindImmediateSend
        }
        let closing = Task { await client.close() }
        try await eventually { fixture.client.isClosing }
        gate.open()
        #expect(try await first.value == .sent([]))
        guard case .queued = try await second.value else {
            Issue.record("expected the second write to be queued")
            return
        }
        await closing.value
    }

    @Test("the store's files are created readable and writable by the owner only")
    func filesOwnerOnly() async throws {
        try await withStoreFolder(temporaryStoreFolder()) { folder in
            let fixture = try await ClientFixture(tables: ["tasks": [["id": 1]]], storage: .directory(folder))
            _ = try await fixture.client.from("tasks").select().fetch()
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!files.isEmpty)
            for file in files {
                let path = folder.appendingPathComponent(file).path
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                let permissions = (attributes[FileAttributeKey.posixPermissions] as? NSNumber)?.intValue ?? -1
                #expect(
                    permissions & 0o077 == 0,
                    "\(file) is readable by others: \(String(permissions, radix: 8))")
            }
            await fixture.client.close()
        }
    }
}
