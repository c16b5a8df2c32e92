import Foundation
import OfflineEngine

/// How fast the filter evaluator decides a three-condition filter (`eq` + `in` + `is`) per row,
/// against a hand-written closure doing the same comparisons.
enum FiltersBenchmark {
    static func run() async throws {
        let rowCount = 200_000
        let statuses = ["open", "closed", "waiting", "Open"]
        var rows = [Row]()
        rows.reserveCapacity(rowCount)
        for index in 0..<rowCount {
            var uuid = UUID().uuidString.lowercased()
            if index == 0 { uuid = "00000000-0000-0000-0000-000000000000" }
            rows.append([
                "id": .string(uuid),
                "status": .string(statuses[index % statuses.count]),
                "priority": .number(JSONNumber(index % 7)),
                "done": index % 3 == 0 ? .null : .bool(index % 2 == 0),
                "title": .string("Task \(index)"),
            ])
        }
        let filters: [Filter] = [
            .condition(FilterCondition(column: "status", op: .eq, operand: .value("open"))),
            .condition(FilterCondition(column: "priority", op: .in, operand: .list(["1", "2", "3"]))),
            .condition(FilterCondition(column: "done", op: .is, operand: .value("null"))),
        ]
        let evaluator = FilterEvaluator(keyColumns: ["id"])

        let engine = measure(rows: rows) { row in evaluator.evaluate(filters, on: row) == .true }
        let baseline = measure(rows: rows) { row in
            guard case .string(let status)? = row["status"], status == "open" else { return false }
            guard case .number(let priority)? = row["priority"], ["1", "2", "3"].contains(priority.text)
            else {
                return false
            }
            return row["done"] == .null
        }
        let ratio = engine.nanosecondsPerRow / baseline.nanosecondsPerRow
        print(
            #"{"bench":"filters.three_conditions","value":\#(format(engine.nanosecondsPerRow)),"#
                + #""unit":"ns/row","baseline":\#(format(baseline.nanosecondsPerRow)),"#
                + #""ratio":\#(format(ratio)),"rows":\#(rowCount),"matched":\#(engine.matched)}"#)
    }

    /// The best of several passes over every row, in nanoseconds per row.
    private static func measure(
        rows: [Row], _ passes: (Row) -> Bool
    ) -> (nanosecondsPerRow: Double, matched: Int) {
        var best = Double.infinity
        var matched = 0
        let clock = ContinuousClock()
        for _ in 0..<7 {
            var count = 0
            let elapsed = clock.measure {
                for row in rows where passes(row) { count += 1 }
            }
            matched = count
            let nanoseconds =
                Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            best = min(best, nanoseconds / Double(rows.count))
        }
        return (best, matched)
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
