import Foundation
import Testing

@testable import OfflineEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let secret = "SECRET-MARKER-42"
private let endpoint = RESTEndpoint(url: URL(string: "https://abc.supabase.co")!, apiKey: "anon-\(secret)")

private func json(_ status: Int, _ body: String, headers: HTTPHeaders = ["Content-Type": "application/json"])
    -> HTTPResponse
{
    HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
}

private func expectPrivate(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
    let texts = [
        String(describing: error), error.localizedDescription,
        (error as? any LocalizedError)?.errorDescription ?? "",
    ]
    for text in texts {
        #expect(!text.contains(secret), "\(text)", sourceLocation: sourceLocation)
        #expect(!text.contains("supabase.co"), "\(text)", sourceLocation: sourceLocation)
        #expect(!text.isEmpty, sourceLocation: sourceLocation)
    }
}

@Suite("Errors", .timeLimit(.minutes(10)))
struct ErrorTests {
    @Test("a PostgREST error body decodes, and its description names no server text")
    func postgrestError() throws {
        let body = """
            {"code":"23505","message":"duplicate key \(secret)",
            "details":"Key (id)=(\(secret)) already exists.",
            "hint":"\(secret)"}
            """
        let error = try #require(ResponseDecoding.failure(for: json(409, body)) as? PostgrestError)
        #expect(error.code == "23505" && error.status == 409)
        #expect(
            error.message.contains(secret) && error.details?.contains(secret) == true && error.hint == secret)
        #expect(
            error.description
                == "The server refused the write: a row with the same key already exists (HTTP 409, 23505).")
        #expect(!error.isRetryable && !error.isAuthenticationFailure)
        expectPrivate(error)
    }

    @Test("a code that carries other text is left out of the description")
    func oddCode() throws {
        let error = try #require(
            ResponseDecoding.failure(for: json(400, #"{"code":"\#(secret)","message":"m"}"#))
                as? PostgrestError)
        #expect(error.description == "The server refused the request: it is not valid (HTTP 400).")
        expectPrivate(error)
    }

    @Test(
        "common codes read in plain words",
        arguments: [
            (
                401, "PGRST303",
                "The server refused the request: "
                    + "the sign-in has expired or is not valid (HTTP 401, PGRST303)."
            ),
            (
                403, "42501",
                "The server refused the request: "
                    + "row-level security or the table's permissions do not allow it (HTTP 403, 42501)."
            ),
            (
                409, "23503",
                "The server refused the write: "
                    + "it refers to a row that does not exist, or a row still refers to it (HTTP 409, 23503)."
            ),
            (400, "23502", "The server refused the write: a required column has no value (HTTP 400, 23502)."),
            (
                400, "22P02",
                "The server refused the request: "
                    + "a value is not valid for its column's type (HTTP 400, 22P02)."
            ),
            (
                406, "PGRST116",
                "The server refused the request: "
                    + "exactly one row was expected, but the result has zero or several (HTTP 406, PGRST116)."
            ),
            (
                400, "PGRST204",
                "The server refused the write: "
                    + "a column in the request does not exist in the table (HTTP 400, PGRST204)."
            ),
            (
                404, "PGRST205",
                "The server refused the request: "
                    + "the table does not exist or is not exposed to the API (HTTP 404, PGRST205)."
            ),
            (
                503, "PGRST002",
                "The server is starting up or reloading its schema; try again shortly (HTTP 503, PGRST002)."
            ),
        ])
    func wording(status: Int, code: String, expected: String) throws {
        let body = #"{"code":"\#(code)","message":"\#(secret)","details":null,"hint":null}"#
        let error = try #require(ResponseDecoding.failure(for: json(status, body)) as? PostgrestError)
        #expect(error.description == expected)
        #expect(error.details == nil && error.hint == nil)
        expectPrivate(error)
    }

    @Test("retryable and authentication helpers follow the status and code")
    func classification() throws {
        let expired = ResponseDecoding.failure(
            for: json(401, #"{"code":"PGRST303","message":"JWT expired"}"#))
        #expect(ResponseDecoding.isAuthenticationFailure(expired) && !ResponseDecoding.isRetryable(expired))
        let rls = ResponseDecoding.failure(for: json(403, #"{"code":"42501","message":"rls"}"#))
        #expect(!ResponseDecoding.isAuthenticationFailure(rls) && !ResponseDecoding.isRetryable(rls))
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers["retry-after"] = "5"
        let busy = ResponseDecoding.failure(
            for: json(503, #"{"code":"PGRST002","message":"m"}"#, headers: headers))
        #expect(ResponseDecoding.isRetryable(busy) && ResponseDecoding.retryAfter(busy) == .seconds(5))
        for status in [408, 429, 500, 504] {
            #expect(ResponseDecoding.isRetryable(ResponseDecoding.failure(for: json(status, "{}"))))
        }
        #expect(ResponseDecoding.isRetryable(TransportError(kind: .timedOut)))
        #expect(!ResponseDecoding.isRetryable(QueryError(.noRows)))
    }

    @Test("an HTML 520 page is an unexpected response, retryable, described without its content")
    func htmlPage() throws {
        let response = HTTPResponse(
            status: 520, headers: ["content-type": "text/html; charset=UTF-8"],
            body: Data("<html><title>\(secret)</title></html>".utf8))
        let error = try #require(ResponseDecoding.failure(for: response) as? UnexpectedResponseError)
        #expect(error.reason == .notJSON && error.contentType == "text/html" && error.isRetryable)
        #expect(
            error.description
                == "The server failed and answered with an HTML page instead of data (HTTP 520).")
        #expect(throws: UnexpectedResponseError.self) { try ResponseDecoding.rows(from: response) }
        expectPrivate(error)
    }

    @Test("malformed JSON where rows were expected is an unexpected response")
    func malformedRows() throws {
        let response = json(200, #"[{"id":1,"name":"\#(secret)""#)
        #expect {
            try ResponseDecoding.rows(from: response)
        } throws: { error in
            (error as? UnexpectedResponseError)?.reason == .malformedJSON
                && !String(describing: error).contains(secret)
        }
        #expect(try ResponseDecoding.rows(from: json(200, #"[{"id":1}]"#)) == [["id": 1]])
        // A blank body is no read's answer; to a write it is what `return=minimal` asks for.
        #expect(throws: UnexpectedResponseError.self) {
            try ResponseDecoding.rows(from: HTTPResponse(status: 204))
        }
        let minimal = Mutation(table: "tasks", operation: .delete)
        #expect(
            try WriteAnswer.rows(
                from: HTTPResponse(status: 204, headers: ["Content-Range": "*/*"]), for: minimal) == [])
        // Without PostgREST's Content-Range, a bare 204 is some other server's.
        #expect(throws: UnexpectedResponseError.self) {
            try WriteAnswer.rows(from: HTTPResponse(status: 204), for: minimal)
        }
        #expect(throws: UnexpectedResponseError.self) { try ResponseDecoding.rows(from: json(200, "[1,2]")) }
    }

    @Test("a URLError maps to a transport error that names no URL")
    func transportError() {
        let failing = URL(string: "https://abc.supabase.co/rest/v1/tasks?name=eq.\(secret)")!
        let error = URLSessionTransport.transportError(
            URLError(.notConnectedToInternet, userInfo: [NSURLErrorFailingURLErrorKey: failing]))
        #expect(error.kind == .offline && error.isRetryable && !error.isAuthenticationFailure)
        #expect(error.description == "The request could not be sent: the device is offline.")
        #expect(URLSessionTransport.transportError(URLError(.timedOut)).kind == .timedOut)
        #expect(URLSessionTransport.transportError(URLError(.cannotFindHost)).kind == .cannotConnect)
        expectPrivate(error)
    }

    @Test(
        "a table name PostgREST rejects is an input error",
        arguments: [
            "", "a/b", "a?b", "a#b", "a%b", "a b", "tab\t", "line\n", "nul\u{0}", ".", "..", "\(secret)/x",
        ])
    func badTableName(table: String) {
        #expect {
            try RequestBuilder.request(
                for: TableQuery(table: table).select().query, endpoint: endpoint, accessToken: secret)
        } throws: { error in
            expectPrivate(error)
            return (error as? QueryError)?.kind == .invalidTableName
        }
    }

    @Test("filters the engine cannot encode are input errors that name no value")
    func badFilters() throws {
        let tasks = TableQuery(table: "tasks")
        let cases: [(ReadQuery, QueryError.Kind)] = [
            (tasks.select().eq("name", value: "\(secret)\u{0}"), .nulCharacter),
            (tasks.select().in("name", values: ["ok", "\u{0}\(secret)"]), .nulCharacter),
            (tasks.select().eq("", value: secret), .invalidColumnName),
            (tasks.select().eq("bad\u{1}col", value: secret), .invalidColumnName),
            (tasks.select().eq("order", value: secret), .reservedColumnName),
            (tasks.select().limit(-1), .invalidRange),
            (
                ReadQuery(QueryDescription(table: "tasks", filters: [.or([], negated: false)])),
                .unencodableFilter
            ),
            (
                ReadQuery(
                    QueryDescription(
                        table: "tasks",
                        filters: [
                            .or(
                                [
                                    .condition(
                                        FilterCondition(
                                            column: "d", op: .is, operand: .value("\(secret),x")))
                                ], negated: false)
                        ])),
                .unencodableFilter
            ),
        ]
        for (query, kind) in cases {
            #expect {
                try RequestBuilder.request(for: query.query, endpoint: endpoint, accessToken: secret)
            } throws: { error in
                expectPrivate(error)
                return (error as? QueryError)?.kind == kind
            }
        }
        let schema = TableQuery(schema: "bad\nschema", table: "t").select().query
        #expect(throws: QueryError(.invalidSchemaName)) {
            try RequestBuilder.request(for: schema, endpoint: endpoint, accessToken: nil)
        }
    }

    @Test("writes with no rows, or an update with several, are input errors")
    func badWrites() {
        let tasks = TableQuery(table: "tasks")
        #expect(throws: QueryError(.noRows)) { try tasks.insert([Row]()) }
        #expect(throws: QueryError(.noRows)) { try tasks.upsert([Int]()) }
        #expect(throws: QueryError(.updateNeedsOneRow)) { try tasks.update([["a": 1], ["a": 2]]) }
        #expect(throws: QueryError(.valuesAreNotRows)) { try tasks.insert(42) }
        let empty = Mutation(table: "tasks", operation: .insert)
        #expect(throws: QueryError(.noRows)) {
            try RequestBuilder.request(for: empty, endpoint: endpoint, accessToken: nil)
        }
    }
}
