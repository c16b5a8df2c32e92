import Foundation
import OfflineEngineTesting
import PostgresGateway
import Testing

@testable import OfflineEngine

/// The values a list's filters imply, against a real PostgreSQL: wherever the overlay takes a
/// write's condition as decided for a list's row (``ImpliedValues``), PostgreSQL holds it true for
/// every row the list's filter admits, over a column of every type a JSON value may come from.
@Suite("Implied values against a real PostgreSQL", .offCooperativePool, .timeLimit(.minutes(10)))
struct ImpliedValuesDifferentialTests {
    @Test("no value a list's filter implies ever decides a write's condition PostgreSQL would not")
    func neverDecidesWhatPostgresWouldNot() throws {
        var random = SeededRandom(seed: 20_261_202)
        let database = try PostgresServer.shared().createDatabase(named: "implied")
        let connection = try database.connect()
        let columns = try DifferentialColumns.createCasesTable(
            on: connection, key: "n serial PRIMARY KEY", random: &random)
        for column in columns {
            for text in column.pool + column.oddities + [nil] as [String?] {
                // A value the type refuses is no row: skip it.
                _ = try? connection.execute("INSERT INTO cases (\"\(column.name)\") VALUES ($1)", [text])
            }
        }
        var cases = 0
        var decided = 0
        var unsound: [String] = []
        for column in columns {
            let texts = Array(Set(column.pool + column.oddities)).sorted()
            for listText in texts {
                let lists = [Self.eq(column.name, listText), Self.single(column.name, listText)]
                let writeTexts = [listText, listText.uppercased(), " " + listText, random.pick(texts)]
                for list in lists {
                    let implied = ImpliedValues([list])
                    for writeText in writeTexts {
                        for write in [Self.eq(column.name, writeText), Self.single(column.name, writeText)] {
                            cases += 1
                            guard implied.undecided([write], on: Row([:])).isEmpty else { continue }
                            decided += 1
                            if Self.admitsARowItDoesNotDecide(list, write, on: connection) {
                                unsound.append("\(column.label): \(list) / \(write)")
                            }
                        }
                    }
                }
            }
            for word in ["null", "true", "false"] {
                let implied = ImpliedValues([Self.is(column.name, word)])
                for other in ["null", "NULL", "true", "false"] {
                    cases += 1
                    guard implied.undecided([Self.is(column.name, other)], on: Row([:])).isEmpty else {
                        continue
                    }
                    decided += 1
                    if Self.admitsARowItDoesNotDecide(
                        Self.is(column.name, word), Self.is(column.name, other), on: connection)
                    {
                        unsound.append("\(column.label): is.\(word) / is.\(other)")
                    }
                }
            }
        }
        print("implied: \(cases) cases, \(decided) decided, \(unsound.count) unsound")
        #expect(decided > 0)
        #expect(unsound.isEmpty, "\(unsound.prefix(10))")
    }

    /// Whether PostgreSQL holds a row of `cases` that `list` admits and on which `write` is not
    /// true; `false` when either cannot be said in SQL or PostgreSQL refuses the query.
    private static func admitsARowItDoesNotDecide(
        _ list: Filter, _ write: Filter, on connection: PostgresConnection
    ) -> Bool {
        var sql = GatewaySQL()
        guard let listClause = try? sql.whereClause([list]),
            let writeClause = try? sql.whereClause([write]),
            let counted = try? connection.execute(
                "SELECT count(*) FROM cases WHERE \(listClause) AND NOT coalesce(\(writeClause), false)",
                sql.parameters)
        else { return false }
        return counted.first?.first != "0"
    }

    private static func eq(_ column: String, _ text: String) -> Filter {
        .condition(FilterCondition(column: column, op: .eq, operand: .value(text), negated: false))
    }

    private static func single(_ column: String, _ text: String) -> Filter {
        .condition(FilterCondition(column: column, op: .in, operand: .list([text]), negated: false))
    }

    private static func `is`(_ column: String, _ word: String) -> Filter {
        .condition(FilterCondition(column: column, op: .is, operand: .value(word), negated: false))
    }
}
