import Foundation
import Synchronization
import Testing

@testable import OfflineEngine

/// `LiveQueryModel` fed hand-made snapshots: which properties change, when, and on which thread
/// its rows are decoded.
@Suite("The live query model", .timeLimit(.minutes(10)))
@MainActor
struct LiveQueryModelTests {
    /// A row type that is not `Equatable`: only the model's own check can keep equal rows from
    /// notifying.
    struct Item: Decodable, Sendable {
        var id: Int
        var title: String
    }

    @Test("a change of each property notifies its observers once, and only that property's")
    func eachPropertyOnce() async throws {
        let (stream, feed) = AsyncThrowingStream.makeStream(of: QuerySnapshot.self)
        let model = LiveQueryModel(rows: [], snapshots: { stream }, decoding: RowsDecoding())
        let counters: [String: ObservationCounter<String>] = [
            "rows": ObservationCounter { "\(model.rows.count)" },
            "isLoaded": ObservationCounter { "\(model.isLoaded)" },
            "refresh": ObservationCounter { "\(model.refresh)" },
            "isFromCache": ObservationCounter { "\(model.isFromCache)" },
            "fetchedAt": ObservationCounter { "\(String(describing: model.fetchedAt))" },
            "hasPendingMutations": ObservationCounter { "\(model.hasPendingMutations)" },
            "pendingRowIDs": ObservationCounter { "\(model.pendingRowIDs)" },
            "error": ObservationCounter { "\(String(describing: model.error))" },
        ]
        let shown = ObservationCounter { model.snapshot }
        let first = Self.snapshot(rows: [["id": 1]])
        var steps: [(changes: Set<String>, snapshot: QuerySnapshot)] = [(["rows", "isLoaded"], first)]
        var next = first
        next.refresh = .idle
        steps.append((["refresh"], next))
        next.isFromCache = false
        steps.append((["isFromCache"], next))
        next.fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)
        steps.append((["fetchedAt"], next))
        next.hasPendingMutations = true
        steps.append((["hasPendingMutations"], next))
        next.pendingRowIDs = ["1"]
        steps.append((["pendingRowIDs"], next))
        next.result = QueryResult(rows: [["id": 1], ["id": 2]])
        steps.append((["rows"], next))
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            for (step, (changed, snapshot)) in steps.enumerated() {
                let before = counters.mapValues(\.changes)
                feed.yield(snapshot)
                _ = try await shown.value { $0 == snapshot }
                for (name, counter) in counters {
                    let expected = changed.contains(name) ? 1 : 0
                    #expect(counter.changes - before[name, default: 0] == expected, "step \(step): \(name)")
                }
                #expect(shown.changes == step + 1)
            }
            feed.finish()
        }
        #expect(model.pendingRowIDs.contains("1") && model.rows.count == 2)
    }

    @Test("a snapshot equal to the one shown changes nothing, and equal rows are not decoded again")
    func identicalSnapshot() async throws {
        let (stream, feed) = AsyncThrowingStream.makeStream(of: QuerySnapshot.self)
        let model = LiveQueryModel(
            rows: [], snapshots: { stream }, decoding: RowsDecoding(Item.self, decoder: JSONDecoder()))
        let rows = ObservationCounter { model.rows.map(\.title) }
        let marks = ObservationCounter { model.pendingRowIDs }
        let shown = ObservationCounter { model.snapshot }
        let first = Self.snapshot(rows: [["id": 1, "title": "a"]], pending: ["1"])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            feed.yield(first)
            _ = try await rows.value { $0 == ["a"] }
            let (rowChanges, markChanges, shownChanges) = (rows.changes, marks.changes, shown.changes)
            // The same snapshot built again (rows in storage of their own), then one whose rows
            // are equal but whose refresh moved on.
            feed.yield(Self.snapshot(rows: [["id": 1, "title": "a"]], pending: ["1"]))
            var idle = Self.snapshot(rows: [["id": 1, "title": "a"]], pending: ["1"])
            idle.refresh = .idle
            feed.yield(idle)
            _ = try await shown.value { $0?.refresh == .idle }
            #expect(rows.changes == rowChanges)
            #expect(marks.changes == markChanges)
            #expect(shown.changes == shownChanges + 1)
            feed.finish()
        }
    }

    @Test("a decode error is kept with the last rows that decoded, and the next good snapshot clears it")
    func decodeError() async throws {
        let (stream, feed) = AsyncThrowingStream.makeStream(of: QuerySnapshot.self)
        let model = LiveQueryModel(
            rows: [], snapshots: { stream }, decoding: RowsDecoding(Item.self, decoder: JSONDecoder()))
        let errors = ObservationCounter { model.error.map { "\($0)" } }
        let titles = ObservationCounter { model.rows.map(\.title) }
        let good = Self.snapshot(rows: [["id": 1, "title": "a"]])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            feed.yield(good)
            _ = try await titles.value { $0 == ["a"] }
            var bad = Self.snapshot(rows: [["id": 1, "title": "a"], ["id": 2]], pending: ["2"])
            bad.hasPendingMutations = true
            feed.yield(bad)
            _ = try await errors.value { $0 != nil }
            #expect(model.error is DecodingError)
            // Everything but the error is still the last snapshot that decoded.
            #expect(model.snapshot == good && model.rows.map(\.title) == ["a"])
            #expect(model.pendingRowIDs.isEmpty && !model.hasPendingMutations)
            feed.yield(Self.snapshot(rows: [["id": 1, "title": "a"], ["id": 2, "title": "b"]]))
            _ = try await errors.value { $0 == nil }
            #expect(model.rows.map(\.title) == ["a", "b"])
            feed.finish()
        }
    }

    @Test("rows are decoded off the main actor, and only the rows that joined when rows were appended")
    func decodingOffTheMainActor() async throws {
        let (stream, feed) = AsyncThrowingStream.makeStream(of: QuerySnapshot.self)
        let model = LiveQueryModel(
            rows: [], snapshots: { stream },
            decoding: RowsDecoding(MainQueueProbeRow.self, decoder: JSONDecoder()))
        let count = ObservationCounter { model.rows.count }
        MainQueueProbeRow.start()
        // The probe can tell: this test runs on the main actor, whose work runs on the main queue.
        #expect(MainQueueProbeRow.isOnMainQueue)
        let first = QueryRows([["id": 1], ["id": 2], ["id": 3]], reservingCapacity: 16)
        let second = first.appending([["id": 4], ["id": 5]])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await model.run() }
            feed.yield(Self.snapshot(rows: first))
            _ = try await count.value { $0 == 3 }
            feed.yield(Self.snapshot(rows: second))
            _ = try await count.value { $0 == 5 }
            feed.finish()
        }
        let decoded = MainQueueProbeRow.decodedOnMainQueue
        #expect(decoded.count == 5, "only the two rows that joined are decoded again")
        #expect(!decoded.contains(true), "a row was decoded on the main actor")
        #expect(model.rows.map(\.id) == [1, 2, 3, 4, 5])
    }

    static func snapshot(rows: QueryRows, pending: PendingRowIDs = []) -> QuerySnapshot {
        QuerySnapshot(
            result: QueryResult(rows: rows), isFromCache: true, fetchedAt: nil, hasPendingMutations: false,
            refresh: .refreshing, pendingRowIDs: pending)
    }
}
