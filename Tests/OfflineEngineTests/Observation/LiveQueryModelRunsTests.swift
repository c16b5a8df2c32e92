import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// `LiveQueryModel` run more than once (a view that leaves and comes back), and its error when
/// the read comes back to the snapshot shown.
@Suite("The live query model across runs", .timeLimit(.minutes(10)))
@MainActor
struct LiveQueryModelRunsTests {
    typealias Item = LiveQueryModelTests.Item

    @Test("a second run whose list is now empty shows no rows, not the first run's")
    func secondRunEmptyList() async throws {
        let runs = SnapshotRuns(2)
        let model = LiveQueryModel(
            rows: [], snapshots: { runs.next() }, decoding: RowsDecoding(Item.self, decoder: JSONDecoder()))
        let titles = ObservationCounter { model.rows.map(\.title) }
        let shown = ObservationCounter { model.snapshot }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            runs.feeds[0].yield(Self.snapshot([["id": 1, "title": "a"]]))
            _ = try await titles.value { $0 == ["a"] }
            runs.feeds[0].finish()
        }
        // The view comes back; meanwhile the list was emptied (every task done elsewhere).
        let empty = {
            var empty = Self.snapshot([])
            empty.refresh = .idle
            return empty
        }()
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            runs.feeds[1].yield(empty)
            _ = try await shown.value { $0 == empty }
            runs.feeds[1].finish()
        }
        #expect(model.rows.isEmpty, "rows and snapshot disagree: \(model.rows.map(\.title))")
    }

    @Test("a decode error ends when the read comes back to the snapshot shown")
    func errorEndsOnShownSnapshot() async throws {
        let runs = SnapshotRuns(1)
        let model = LiveQueryModel(
            rows: [], snapshots: { runs.next() }, decoding: RowsDecoding(Item.self, decoder: JSONDecoder()))
        let errors = ObservationCounter { model.error.map { "\($0)" } }
        let titles = ObservationCounter { model.rows.map(\.title) }
        let good = Self.snapshot([["id": 1, "title": "a"]])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            runs.feeds[0].yield(good)
            _ = try await titles.value { $0 == ["a"] }
            // A write without a column the type needs, shown while it is sent, then refused:
            // the read is back to the rows it showed.
            runs.feeds[0].yield(Self.snapshot([["id": 1, "title": "a"], ["id": 2]]))
            _ = try await errors.value { $0 != nil }
            runs.feeds[0].yield(good)
            _ = try await errors.value { $0 == nil }
            runs.feeds[0].finish()
        }
        #expect(model.error == nil && model.rows.map(\.title) == ["a"])
    }

    @Test("a run cancelled while it decodes leaves the newer run's rows alone")
    func cancelledRunDecoding() async throws {
        let runs = SnapshotRuns(2)
        // The first decode waits at the gate (the old run's rows, decoded while the view left).
        let gate = Gate()
        let decodes = Mutex(0)
        let model = LiveQueryModel(
            rows: [], snapshots: { runs.next() }, decoding: RowsDecoding(Item.self, decoder: JSONDecoder()),
            decodeOff: { decoding, raw in
                if decodes.withLock({ count in
                    count += 1
                    return count == 1
                }) {
                    await gate.wait()
                }
                return await RowsDecoding.decodedOffTheCaller(decoding, raw)
            })
        let shown = ObservationCounter { model.snapshot }
        let older = Self.snapshot([["id": 1, "title": "old"]])
        let first = Task { await model.run() }
        runs.feeds[0].yield(older)
        _ = try await withTimeout(30) { try await gate.arrivals.values(atLeast: 1) }
        // The view went away while the old run decoded, and came back with a newer list.
        first.cancel()
        let newer = Self.snapshot([["id": 7, "title": "new"]])
        let second = Task { await model.run() }
        runs.feeds[1].yield(newer)
        _ = try await shown.value { $0 == newer }
        gate.open()
        await first.value
        #expect(model.snapshot == newer)
        #expect(model.rows.map(\.title) == ["new"])
        second.cancel()
        await second.value
    }

    static func snapshot(_ rows: QueryRows) -> QuerySnapshot {
        QuerySnapshot(
            result: QueryResult(rows: rows), isFromCache: true, fetchedAt: nil, hasPendingMutations: false,
            refresh: .refreshing, pendingRowIDs: [])
    }
}
