import Foundation
import OfflineEngineTesting
import PostgresGateway
import Testing

@testable import OfflineEngine

/// The evaluator against a real PostgreSQL: for generated filters over a table with a column of
/// every type a JSON value can come from, each answer the engine gives (true or false) must be
/// the row set PostgreSQL returns for the same filter bound the way PostgREST binds it.
///
/// A filter PostgreSQL rejects (22P02 invalid input for the column's type, 42804 `IS TRUE` on a
/// non-boolean, ...) fails the whole request: no row is returned or changed, a read with it has
/// no cached list to lay rows over and a queued write with it is rejected on replay and leaves
/// the overlay. Such filters are counted apart and the engine's answers for them are not judged.
/// The one documented limit (a jsonb column holding JSON `null` reads as SQL NULL) is counted
/// apart as well.
@Suite("Filters against a real PostgreSQL", .offCooperativePool, .timeLimit(.minutes(10)))
struct FilterDifferentialTests {
    static let rowCount = 120
    static let filterCount = 1_500

    @Test("the evaluator never contradicts PostgreSQL on eq, neq, in, is and and/or trees")
    func differential() throws {
        let seed =
            ProcessInfo.processInfo.environment["OFFLINE_ENGINE_DIFF_SEED"].flatMap(UInt64.init) ?? 20_240_115
        var random = SeededRandom(seed: seed)
        let database = try PostgresServer.shared().createDatabase(named: "filters")
        let connection = try database.connect()
        try connection.execute("ALTER DATABASE \"\(database.name)\" SET TimeZone = 'Europe/Paris'")
        try connection.execute("SET TimeZone = 'Europe/Paris'")
        let columns = try DifferentialColumns.createCasesTable(
            on: connection, key: "id uuid PRIMARY KEY", random: &random)
        let names = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let placeholders = (1...columns.count + 1).map { "$\($0)" }.joined(separator: ", ")
        for _ in 0..<Self.rowCount {
            var values: [String?] = [DifferentialColumns.randomUUID(&random)]
            for column in columns {
                if random.chance(0.12) {
                    values.append(nil)
                } else if !column.oddities.isEmpty, random.chance(0.1) {
                    values.append(random.pick(column.oddities))
                } else {
                    values.append(random.pick(column.pool))
                }
            }
            try connection.execute("INSERT INTO cases (id, \(names)) VALUES (\(placeholders))", values)
        }

        // Read the rows back as PostgREST renders them.
        let body = try connection.execute("SELECT json_agg(t) FROM (SELECT * FROM cases ORDER BY id) t")
        let rows = try Row.rows(from: JSONText.parse(body[0][0] ?? "[]"))
        let jsonNullRows = Set(
            try connection.execute("SELECT id::text FROM cases WHERE jsonb_typeof(c_jsonb) = 'null'")
                .compactMap {
                    $0[0]
                })
        var observed = [String: [JSONValue]]()
        for row in rows {
            for (name, value) in row.values { observed[name, default: []].append(value) }
        }
        let key = DifferentialColumn(name: "id", sqlType: "uuid", label: "uuid (key)", pool: [], isKey: true)
        let generator = FilterCaseGenerator(columns: columns + [key], observed: observed)
        let evaluator = FilterEvaluator(keyColumns: ["id"])

        var report = DifferentialReport()
        for _ in 0..<Self.filterCount {
            let (filter, label) = generator.filter(&random)
            // The gateway's own translation: values bound untyped, as PostgREST binds them.
            var sql = GatewaySQL()
            let clause = try sql.whereClause([filter])
            let matching: Set<String>
            do {
                let result = try connection.execute(
                    "SELECT id::text FROM cases WHERE \(clause)", sql.parameters)
                matching = Set(result.compactMap { $0[0] })
            } catch {
                guard let state = error.sqlState, !state.hasPrefix("XX"), !state.hasPrefix("08") else {
                    throw error
                }
                report.rejected(label: label, rows: rows.count)
                continue
            }
            let touchesJSONB = FilterDifferentialTests.columns(of: filter).contains("c_jsonb")
            for row in rows {
                guard case .string(let id)? = row["id"] else { continue }
                if touchesJSONB, jsonNullRows.contains(id) {
                    report.knownLimit()
                    continue
                }
                let truth = evaluator.evaluate(filter, on: row)
                let returned = matching.contains(id)
                let unsound = (truth == .true && !returned) || (truth == .false && returned)
                report.record(label: label, answered: truth != .unknown, unsound: unsound)
                if truth == .unknown, label == ProcessInfo.processInfo.environment["OFFLINE_ENGINE_DIFF_SHOW"]
                {
                    let shown = row.values.filter {
                        FilterDifferentialTests.columns(of: filter).contains($0.key)
                    }
                    Swift.print("  unknown: \(filter) on \(shown)")
                }
                if unsound {
                    report.example(
                        "\(filter) on \(row.values.filter { FilterDifferentialTests.columns(of: filter).contains($0.key) }): engine \(truth), PostgreSQL \(returned)"
                    )
                }
            }
        }
        report.print()
        #expect(report.cases >= 20_000)
        #expect(report.unsound == 0, "\(report.examples.joined(separator: "\n"))")
        for label in ["text", "int4", "int8", "int2", "uuid", "uuid (key)"] {
            #expect(report.answeredFraction(label) >= 0.95, "\(label) answered too rarely")
        }
    }

    static func columns(of filter: Filter) -> Set<String> {
        switch filter {
        case .condition(let condition): return [condition.column]
        case .and(let parts, _), .or(let parts, _):
            return parts.reduce(into: []) { $0.formUnion(columns(of: $1)) }
        case .unparsed: return []
        }
    }
}

/// Tallies of the differential run, per column type.
struct DifferentialReport {
    private struct Tally {
        var cases = 0
        var answered = 0
        var unsound = 0
        var rejectedFilters = 0
    }

    private var tallies = [String: Tally]()
    private(set) var examples = [String]()
    private var limitCases = 0

    var cases: Int { tallies.values.reduce(0) { $0 + $1.cases } }
    var unsound: Int { tallies.values.reduce(0) { $0 + $1.unsound } }
    private var answered: Int { tallies.values.reduce(0) { $0 + $1.answered } }

    mutating func record(label: String, answered: Bool, unsound: Bool) {
        tallies[label, default: Tally()].cases += 1
        if answered { tallies[label, default: Tally()].answered += 1 }
        if unsound { tallies[label, default: Tally()].unsound += 1 }
    }

    mutating func rejected(label: String, rows: Int) {
        tallies[label, default: Tally()].rejectedFilters += 1
    }

    mutating func knownLimit() { limitCases += 1 }

    mutating func example(_ text: String) {
        if examples.count < 30 { examples.append(text) }
    }

    func answeredFraction(_ label: String) -> Double {
        guard let tally = tallies[label], tally.cases > 0 else { return 0 }
        return Double(tally.answered) / Double(tally.cases)
    }

    func print() {
        let percent = cases == 0 ? 0 : 100 * Double(answered) / Double(cases)
        Swift.print(
            "differential: \(cases) cases, \(unsound) unsound, \(String(format: "%.1f", percent))% answered")
        Swift.print("  type           cases  answered  unsound  rejected filters")
        for (label, tally) in tallies.sorted(by: { $0.key < $1.key }) {
            let fraction = tally.cases == 0 ? 0 : 100 * Double(tally.answered) / Double(tally.cases)
            let name = label.padding(toLength: 13, withPad: " ", startingAt: 0)
            let count = String(tally.cases).leftPadded(7)
            let answered = (String(format: "%.1f", fraction) + "%").leftPadded(9)
            Swift.print(
                "  \(name)\(count)\(answered)\(String(tally.unsound).leftPadded(9))"
                    + "\(String(tally.rejectedFilters).leftPadded(18))")
        }
        Swift.print("  jsonb JSON-null rows skipped (documented limit): \(limitCases) cases")
        for example in examples { Swift.print("  unsound: \(example)") }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
