import OfflineEngine

/// Which requests an expectation or a server answer is about.
struct Req: Sendable, CustomStringConvertible {
    enum Method: Sendable { case get, post, patch, delete, anyWrite, any }

    var method: Method
    var table: String?
    /// The user whose token the request must carry (`token-<user>`; `anon`: the API key).
    var user: String?
    /// A row id the request's body must carry.
    var row: Int?
    /// Text the request's `Prefer` header must hold.
    var prefer: String?

    static func get(_ table: String? = nil) -> Req { Req(method: .get, table: table) }
    static func post(_ table: String? = nil) -> Req { Req(method: .post, table: table) }
    static func patch(_ table: String? = nil) -> Req { Req(method: .patch, table: table) }
    static func delete(_ table: String? = nil) -> Req { Req(method: .delete, table: table) }
    static let writes = Req(method: .anyWrite)
    static let all = Req(method: .any)

    /// This match, only for requests carrying `user`'s token.
    func by(_ user: String) -> Req {
        var copy = self
        copy.user = user
        return copy
    }

    /// This match, only for requests whose body carries the row with this id.
    func carrying(_ id: Int) -> Req {
        var copy = self
        copy.row = id
        return copy
    }

    /// This match, only for requests whose `Prefer` header holds `text`.
    func preferring(_ text: String) -> Req {
        var copy = self
        copy.prefer = text
        return copy
    }

    func matches(_ request: HTTPRequest) -> Bool {
        switch method {
        case .get where request.method != .get: return false
        case .post where request.method != .post: return false
        case .patch where request.method != .patch: return false
        case .delete where request.method != .delete: return false
        case .anyWrite where request.method == .get: return false
        default: break
        }
        if let table, !request.url.path.hasSuffix("/" + table) { return false }
        if let user {
            let token = user == "anon" ? "anon-key" : "token-\(user)"
            if request.headers["Authorization"] != "Bearer \(token)" { return false }
        }
        if request.headers["apikey"] != "anon-key" { return false }
        if let prefer, request.headers["Prefer"]?.contains(prefer) != true { return false }
        if let row, !request.bodyRows.contains(where: { $0["id"] == .number(JSONNumber(row)) }) {
            return false
        }
        return true
    }

    var description: String {
        "\(method) \(table ?? "any table")" + (user.map { " by \($0)" } ?? "")
    }
}

/// How the stand-in server answers the requests a rule matches.
enum Answer: Sendable, CustomStringConvertible {
    /// A PostgREST error: status, SQLSTATE or PGRST code.
    case reject(Int, String)
    /// 503 with a JSON body, and `Retry-After` seconds when given.
    case unavailable(retryAfter: Int?)
    /// A proxy's HTML page (status 520, or the one given, e.g. 200).
    case proxyPage(Int)
    /// PostgREST's answer to a write that asked for no rows: the status, its `Content-Range`, no
    /// body.
    case empty(Int)
    /// A JSON response with this text as its body, valid or not.
    case body(Int, String)
    /// The connection fails before the server sees the request.
    case transportFailure
    /// The server applies the request and the answer never arrives.
    case lost
    /// The request waits until a `.release` step (or the end of the scenario).
    case hang
    /// The server answers at once, with the rows it holds now; the answer arrives at the next
    /// `.release` (a fetch under way while the world moves on).
    case late

    var description: String {
        switch self {
        case .reject(let status, let code): "reject \(status) \(code)"
        case .unavailable(let after): "503" + (after.map { " Retry-After \($0)" } ?? "")
        case .proxyPage(let status): "HTML page \(status)"
        case .empty(let status): "empty \(status)"
        case .body(let status, let text): "\(status) \(text)"
        case .transportFailure: "transport failure"
        case .lost: "answer lost"
        case .hang: "hang"
        case .late: "late"
        }
    }
}
