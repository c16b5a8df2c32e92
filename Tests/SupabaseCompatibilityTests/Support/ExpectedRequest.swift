import Foundation
import OfflineEngine
import Testing

/// What a supabase-swift case says its request is, in the terms PostgREST reads: method, path,
/// decoded query pairs in any order, the headers that change PostgREST's answer, and the body
/// as a JSON value. Every request must carry the API key as `apikey` and, with nobody signed
/// in, as the bearer token, as supabase-swift's client sends them.
///
/// supabase-swift's `PostgrestClient` is handed the REST root itself, so its paths are
/// `/users` or `/rest/v1/users`; ours always are `/rest/v1/<path>`. Its `X-Client-Info`, and the
/// `Content-Type` it puts on requests without a body, change nothing PostgREST does and are
/// not compared.
struct ExpectedRequest {
    var method: HTTPMethod
    /// The path under `/rest/v1/`: a table, or `rpc/<function>`.
    var path: String
    var query: [QueryPair]
    /// `Accept`; PostgREST's JSON unless the case asks for one object.
    var accept: String
    /// The `Prefer` preferences; empty means no `Prefer` header.
    var prefer: Set<String>
    var acceptProfile: String?
    var contentProfile: String?
    /// The body as JSON text; `nil` means no body.
    var body: String?

    init(
        _ method: HTTPMethod, _ path: String, query: KeyValuePairs<String, String> = [:],
        accept: String = "application/json", prefer: Set<String> = [], acceptProfile: String? = nil,
        contentProfile: String? = nil, body: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query.map { QueryPair(name: $0.key, value: $0.value) }
        self.accept = accept
        self.prefer = prefer
        self.acceptProfile = acceptProfile
        self.contentProfile = contentProfile
        self.body = body
    }

    /// Records an issue for every part of `sent` that PostgREST would read differently.
    func verify(_ sent: SentRequest, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(sent.method == method, sourceLocation: sourceLocation)
        #expect(sent.path == "/rest/v1/" + path, sourceLocation: sourceLocation)
        #expect(sent.query == query.sorted(), sourceLocation: sourceLocation)
        #expect(sent.headers["accept"] == accept, sourceLocation: sourceLocation)
        #expect(sent.prefer == prefer, sourceLocation: sourceLocation)
        #expect(sent.headers["accept-profile"] == acceptProfile, sourceLocation: sourceLocation)
        #expect(sent.headers["content-profile"] == contentProfile, sourceLocation: sourceLocation)
        #expect(sent.headers["apikey"] == Wire.apiKey, sourceLocation: sourceLocation)
        #expect(sent.headers["authorization"] == "Bearer " + Wire.apiKey, sourceLocation: sourceLocation)
        guard let body else {
            #expect(sent.body == nil, sourceLocation: sourceLocation)
            return
        }
        #expect(sent.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
        let expectedBody = try JSONTree.parse(body)
        #expect(sent.body == expectedBody, sourceLocation: sourceLocation)
    }
}
