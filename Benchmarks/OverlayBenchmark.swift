import Foundation
@_spi(Benchmarks) import OfflineEngine

/// Lays 1,000 queued writes (inserts, updates by id, deletes by id) over 10,000 cached rows, and
/// the same proportion over 1k and 100k rows, to show the cost grows linearly.
enum OverlayBenchmark {
    static func run() async throws {
        for rowCount in [1_000, 10_000, 100_000] {
            let writeCount = rowCount / 10
            let rows = (0..<rowCount).map { index -> Row in
                [
                    "id": .string(uuid(index)), "title": .string("Task \(index)"),
                    "done": .bool(index % 2 == 0),
                    "priority": .number(JSONNumber(index % 5)),
                ]
            }
            let writes = (0..<writeCount).map { index -> Mutation in
                let target = uuid((index * 7_919) % rowCount)
                switch index % 5 {
                case 0, 1:
                    return Mutation(
                        table: "tasks", operation: .insert,
                        rows: [["id": .string(uuid(rowCount + index)), "title": "new", "done": false]])
                case 2, 3:
                    return Mutation(
                        table: "tasks", operation: .update, rows: [["done": true]],
                        filters: [.condition(FilterCondition(column: "id", op: .eq, operand: .value(target)))]
                    )
                default:
                    return Mutation(
                        table: "tasks", operation: .delete,
                        filters: [.condition(FilterCondition(column: "id", op: .eq, operand: .value(target)))]
                    )
                }
            }
            let query = QueryDescription(table: "tasks", select: "id,title,done,priority")
            let keys = PrimaryKeys()
            var shown = 0
            let value = median {
                shown =
                    OverlayBenchmarkHooks.overlay(rows, query: query, writes: writes, primaryKeys: keys).count
            }
            var indexed = 0
            let baseline = median {
                indexed = OverlayBenchmarkHooks.indexRows(rows, table: "tasks", primaryKeys: keys)
            }
            let line: [String: Any] = [
                "bench": "overlay", "rows": rowCount, "writes": writeCount, "value": round3(value),
                "unit": "ms",
                "baseline": round3(baseline), "ratio": round3(value / max(baseline, 0.000_001)),
                "baselineWhat": "copy rows and build the key index", "shownRows": shown,
                "indexedKeys": indexed,
            ]
            let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    /// A UUID-shaped id, lower case, for `index`.
    private static func uuid(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        let padded = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return "00000000-0000-4000-8000-" + padded
    }

    /// The median of several runs of `body`, in milliseconds.
    private static func median(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var samples = [Double]()
        for _ in 0..<9 {
            let elapsed = clock.measure(body)
            samples.append(
                Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return samples.sorted()[samples.count / 2]
    }

    private static func round3(_ value: Double) -> Double { (value * 1_000).rounded() / 1_000 }
}
