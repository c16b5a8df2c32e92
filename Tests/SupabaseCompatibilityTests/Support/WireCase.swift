import OfflineEngine
import Testing

/// One ported supabase-swift case that only checks the request a builder call sends: the call,
/// made on a fresh client, and the request PostgREST must read from it. Named after the case it
/// comes from (its snapshot or its test function), as its test's argument.
struct WireCase: Sendable, CustomTestStringConvertible {
    let name: String
    let expected: ExpectedRequest
    let send: @Sendable (OfflineClient) async throws -> Void
    /// Where the case is written, so that an issue points at it rather than at `verify`.
    let sourceLocation: SourceLocation

    init(
        _ name: String, sends expected: ExpectedRequest, sourceLocation: SourceLocation = #_sourceLocation,
        _ send: @escaping @Sendable (OfflineClient) async throws -> Void
    ) {
        self.name = name
        self.expected = expected
        self.sourceLocation = sourceLocation
        self.send = send
    }

    var testDescription: String { name }

    /// Makes the call on a fresh client and checks the one request it sent.
    func verify() async throws {
        let sent = try await Wire.request(sourceLocation: sourceLocation, send)
        try expected.verify(sent, sourceLocation: sourceLocation)
    }

    /// A read of every column of `table` (`from(table).select()`) that `narrow` filters, which
    /// must be sent as a GET of `table` with `query`.
    static func read(
        _ name: String, _ query: KeyValuePairs<String, String>, from table: String = "users",
        sourceLocation: SourceLocation = #_sourceLocation,
        _ narrow: @escaping @Sendable (ReadQuery) -> ReadQuery
    ) -> WireCase {
        WireCase(name, sends: ExpectedRequest(.get, table, query: query), sourceLocation: sourceLocation) {
            try await narrow($0.from(table).select()).execute()
        }
    }
}
