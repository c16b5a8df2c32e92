import Foundation
import Testing

@testable import OfflineEngine

/// `SyncStatusModel`: fed hand-made statuses, and on a client through a burst and a refusal.
@Suite("The sync status model", .timeLimit(.minutes(10)))
@MainActor
struct SyncStatusModelTests {
    @Test("a change of each part notifies its observers once; an equal status notifies nothing")
    func eachPartOnce() async throws {
        let (statuses, feed) = AsyncThrowingStream.makeStream(of: SyncStatus.self)
        let (rejections, rejectionFeed) = AsyncThrowingStream.makeStream(of: [RejectedMutation].self)
        let model = SyncStatusModel(statuses: { statuses }, rejections: { rejections })
        let counters: [String: ObservationCounter<String>] = [
            "connectivity": ObservationCounter { "\(model.connectivity)" },
            "isUploading": ObservationCounter { "\(model.isUploading)" },
            "pendingCount": ObservationCounter { "\(model.pendingCount)" },
            "oldestPendingAt": ObservationCounter { "\(String(describing: model.oldestPendingAt))" },
            "lastUploadError": ObservationCounter { "\(String(describing: model.lastUploadError))" },
            "lastSyncedAt": ObservationCounter { "\(String(describing: model.lastSyncedAt))" },
            "isWaitingForSession": ObservationCounter { "\(model.isWaitingForSession)" },
            "disconnectedFeeds": ObservationCounter { "\(model.disconnectedFeeds.sorted())" },
        ]
        // Each step changes one part; the last repeats the one before.
        var status = SyncStatus(
            connectivity: .unknown, isUploading: false, pendingCount: 0, oldestPendingAt: nil,
            lastUploadError: nil, lastSyncedAt: nil, isWaitingForSession: false)
        var steps: [(String?, SyncStatus)] = []
        status.connectivity = .online
        steps.append(("connectivity", status))
        status.isUploading = true
        steps.append(("isUploading", status))
        status.pendingCount = 3
        steps.append(("pendingCount", status))
        status.oldestPendingAt = Date(timeIntervalSince1970: 1_800_000_000)
        steps.append(("oldestPendingAt", status))
        status.lastUploadError = "The server did not answer."
        steps.append(("lastUploadError", status))
        status.lastSyncedAt = Date(timeIntervalSince1970: 1_800_000_100)
        steps.append(("lastSyncedAt", status))
        status.isWaitingForSession = true
        steps.append(("isWaitingForSession", status))
        status.disconnectedFeeds = ["tasks"]
        steps.append(("disconnectedFeeds", status))
        steps.append((nil, status))
        let whole = ObservationCounter {
            SyncStatus(
                connectivity: model.connectivity, isUploading: model.isUploading,
                pendingCount: model.pendingCount,
                oldestPendingAt: model.oldestPendingAt, lastUploadError: model.lastUploadError,
                lastSyncedAt: model.lastSyncedAt, isWaitingForSession: model.isWaitingForSession,
                disconnectedFeeds: model.disconnectedFeeds)
        }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            for (step, (changed, status)) in steps.enumerated() {
                let before = counters.mapValues(\.changes)
                feed.yield(status)
                var shown = status
                if changed == nil {
                    // The repeat shows nothing: a status after it is the point to check at.
                    shown.pendingCount = 99
                    feed.yield(shown)
                }
                let expectedStatus = shown
                _ = try await whole.value { $0 == expectedStatus }
                for (name, counter) in counters {
                    let expected = name == (changed ?? "pendingCount") ? 1 : 0
                    #expect(counter.changes - before[name, default: 0] == expected, "step \(step): \(name)")
                }
            }
            feed.finish()
            rejectionFeed.finish()
        }
        #expect(model.rejected.isEmpty && model.error == nil)
    }

    @Test(
        "1,000 writes queued in a burst notify the pending count a handful of times, ending on 1,000"
    )
    func burst() async throws {
        let fixture = try await ClientFixture()
        let model = SyncStatusModel(fixture.client)
        let pending = ObservationCounter { model.pendingCount }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            await fixture.client.disableNetwork()
            _ = try await ObservationCounter { model.connectivity }.value { $0 == .offline }
            let before = pending.changes
            let client = fixture.client
            try await burstWhileMainActorHeld(1_000) { id in
                _ = try await client.from("tasks").insert(["id": .number(JSONNumber(id))] as Row).execute()
            }
            _ = try await pending.value { $0 == 1_000 }
            // The count moved with each commit of the store; the model takes the newest.
            #expect(pending.changes - before <= 8, "\(pending.changes - before) notifications")
            await fixture.client.close()
        }
        #expect(model.error == nil || model.error as? ClientError == .closed)
    }

    @Test("a refused write shows in rejected, and leaves it when discarded")
    func rejectedWrites() async throws {
        let fixture = try await ClientFixture()
        fixture.probe.answer { request in
            request.method == .post ? errorResponse(status: 400, code: "23514", message: "check") : nil
        }
        let model = SyncStatusModel(fixture.client)
        let rejected = ObservationCounter { model.rejected.map(\.error.code) }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            try await fixture.client.insertOffline(["id": 1])
            await fixture.client.enableNetwork()
            _ = try await rejected.value { $0 == ["23514"] }
            try await fixture.client.dismissRejected(model.rejected[0].id)
            _ = try await rejected.value { $0.isEmpty }
            #expect(model.pendingCount == 0)
            group.cancelAll()
        }
        #expect(model.error == nil)
        await fixture.client.close()
    }
}
