import Foundation
import OfflineEngine
import PostgresGateway

/// Runs ported PostgREST cases through ``PostgresGateway`` on a real PostgreSQL, in a database
/// of their own holding the fixture. Reads run first; before each case that writes, the tables
/// are emptied and their rows loaded again (PostgREST's spec rolls every request back), which
/// is much faster than a copy of the database per case.
struct FidelityRunner {
    static let base = "http://127.0.0.1:1/rest/v1/"
    private let admin: PostgresConnection
    private let gateway: PostgresGateway
    private let truncate: String

    /// Creates the database with the fixture.
    init() throws {
        let database = try PostgresServer.shared().createDatabase(named: "fidelity")
        admin = try database.connect()
        for statement in FidelityFixture.schemaStatements + FidelityFixture.dataStatements {
            try admin.execute(statement)
        }
        let tables = try admin.execute(
            "SELECT string_agg(format('%I', tablename), ', ') FROM pg_tables WHERE schemaname = 'public'")
        truncate = "TRUNCATE \((tables.first?.first ?? nil) ?? "") RESTART IDENTITY CASCADE"
        gateway = try PostgresGateway(connectionInfo: database.connectionInfo)
    }

    /// Every case's outcome: the reads' first, then the writes', each in the order given.
    func run(_ cases: [FidelityCase]) async throws -> [(FidelityCase, FidelityOutcome)] {
        var outcomes: [(FidelityCase, FidelityOutcome)] = []
        for item in cases where !item.writes { outcomes.append((item, try await run(item))) }
        for item in cases where item.writes {
            try admin.transaction { execute in
                _ = try execute(truncate, [])
                for statement in FidelityFixture.dataStatements { _ = try execute(statement, []) }
            }
            outcomes.append((item, try await run(item)))
        }
        return outcomes
    }

    private func run(_ item: FidelityCase) async throws -> FidelityOutcome {
        for step in item.steps {
            let request = Self.request(step)
            let response = try await gateway.send(request)
            guard let difference = FidelityOutcome.difference(response, step) else { continue }
            if let message = FidelityOutcome.refusal(response) { return .refused(message: message) }
            return .wrong(request: Self.describe(step), difference: difference)
        }
        return .passed
    }

    /// The step as an ``HTTPRequest``, its query percent-encoded as a client would send it.
    static func request(_ step: FidelityStep) -> HTTPRequest {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "\"\\{}|^`[]")
        let path = step.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? step.path
        var headers = HTTPHeaders(step.headers)
        headers["apikey"] = "anon-key"
        if headers["Authorization"] == nil { headers["Authorization"] = "Bearer anon-key" }
        if step.body != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return HTTPRequest(
            method: step.method, url: URL(string: base + path)!, headers: headers,
            body: step.body.map { Data($0.utf8) })
    }

    static func describe(_ step: FidelityStep) -> String {
        let headers = step.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return
            ([step.method.rawValue + " /" + step.path] + headers + (step.body.map { ["body \($0)"] } ?? []))
            .joined(separator: " | ")
    }
}
