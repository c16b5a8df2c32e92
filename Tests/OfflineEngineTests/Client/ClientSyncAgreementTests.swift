import Foundation
import Synchronization
import Testing

@testable import OfflineEngine

/// After every step of a write's life through each failure class, what the app's streams show
/// (`pendingMutations(table:)`, `rejectedMutations()`, `syncStatus`) is what the store holds.
@Suite("The streams agree with the store through every failure class", .timeLimit(.minutes(10)))
struct ClientSyncAgreementTests {
    /// The streams' current values and the store's contents, as ids.
    private struct Views: Equatable, CustomStringConvertible {
        var pending: [UUID]
        var rejected: [UUID]
        var statusCount: Int
        var storeQueue: [UUID]
        var storeRejected: [UUID]

        var agree: Bool {
            pending == storeQueue && rejected == storeRejected && statusCount == storeQueue.count
        }

        var description: String {
            "pending \(pending.count), rejected \(rejected.count), status \(statusCount); "
                + "store: queue \(storeQueue.count), rejected \(storeRejected.count)"
        }
    }

    /// Waits until the streams show `expected` (queued and rejected ids) and agree with the store.
    private static func expectAgreement(
        _ fixture: ClientFixture, queued: [UUID], rejected: [UUID], _ step: String
    ) async throws {
        let client = fixture.client
        let pending = try await firstValue(of: client.pendingMutations(table: "tasks")) {
            $0.map(\.id) == queued
        }
        let shown = try await firstValue(of: client.rejectedMutations()) { $0.map(\.id) == rejected }
        let status = try await firstValue(of: client.syncStatus) { $0.pendingCount == queued.count }
        let views = Views(
            pending: pending.map(\.id), rejected: shown.map(\.id), statusCount: status.pendingCount,
            storeQueue: try await client.store.queue.all().map(\.mutation.id),
            storeRejected: try await client.store.rejected.all().map(\.mutation.id))
        #expect(views.agree, "\(step): \(views)")
    }

    @Test(
        "queued, transient, waiting for a session, permanent, retried: the streams match the store at each step"
    )
    func everyStep() async throws {
        let fixture = try await ClientFixture()
        let client = fixture.client
        let answer = Mutex<HTTPResponse?>(nil)
        fixture.probe.answer { request in request.method == .post ? answer.withLock { $0 } : nil }

        await client.disableNetwork()
        let write = try await client.from("tasks").insert(["id": 1] as Row).execute()
        let id = try #require(write.outcome.queuedID)
        try await Self.expectAgreement(fixture, queued: [id], rejected: [], "queued offline")

        answer.withLock { $0 = errorResponse(status: 503, code: "PGRST002") }
        await client.enableNetwork()
        _ = try await firstValue(of: client.syncStatus) { $0.lastUploadError != nil }
        try await Self.expectAgreement(fixture, queued: [id], rejected: [], "transient")

        answer.withLock { $0 = errorResponse(status: 401, code: "PGRST301") }
        try await fixture.clock.driving {
            _ = try await firstValue(of: client.session) { $0.isWaitingForToken }
        }
        try await Self.expectAgreement(fixture, queued: [id], rejected: [], "waiting for a session")

        answer.withLock { $0 = errorResponse(status: 403, code: "42501") }
        try await client.signIn(ClientFixture.session("user-1"))
        try await Self.expectAgreement(fixture, queued: [], rejected: [id], "permanent")

        answer.withLock { $0 = nil }
        try await client.retry(id)
        try await client.waitForPendingWrites()
        try await Self.expectAgreement(fixture, queued: [], rejected: [], "retried and accepted")
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1]])
        await client.close()
    }
}
