import Foundation
import OfflineEngine

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
            let (value, fastest) = timing {
                shown =
                    OverlayBenchmarkHooks.overlay(rows, query: query, writes: writes, primaryKeys: keys).count
            }
            var indexed = 0
            let (baseline, _) = timing {
                indexed = OverlayBenchmarkHooks.indexRows(rows, table: "tasks", primaryKeys: keys)
            }
            let line: [String: Any] = [
                "bench": "overlay", "rows": rowCount, "writes": writeCount, "value": round3(value),
                "min": round3(fastest), "unit": "ms",
                "baseline": round3(baseline), "ratio": round3(value / max(baseline, 0.000_001)),
                "baselineWhat": "copy rows and build the key index", "shownRows": shown,
                "indexedKeys": indexed,
            ]
            let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    /// A random-looking (but fixed) version-4 UUID text, lower case, for `index`.
    private static func uuid(_ index: Int) -> String {
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8]()
        for _ in 0..<2 {
            state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
            state ^= state >> 31
            withUnsafeBytes(of: state) { bytes.append(contentsOf: $0) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    /// The median and the fastest of several runs of `body`, in milliseconds.
    private static func timing(_ body: () -> Void) -> (median: Double, fastest: Double) {
        let clock = ContinuousClock()
        var samples = [Double]()
        for _ in 0..<15 {
            let elapsed = clock.measure(body)
            samples.append(
                Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        samples.sort()
        return (samples[samples.count / 2], samples[0])
    }

    private static func round3(_ value: Double) -> Double { (value * 1_000).rounded() / 1_000 }
}
