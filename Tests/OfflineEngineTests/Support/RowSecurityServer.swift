import Foundation
import OfflineEngineTesting

@testable import OfflineEngine

/// A PostgREST stand-in for one table under row-level security per user, with seeded faults:
/// the server a soak runs the engine against.
///
/// - Tokens are `Bearer token-<user>`; the API key means no user. A request with no user is
///   refused with 401 (`42501`, the table is not granted to anon), an unknown token with 401
///   (`PGRST301`).
/// - An insert (or upsert) of a row whose owner column is not the token's user is refused
///   with 403 `42501`, as PostgreSQL's `WITH CHECK` would; a second insert of a key is 409
///   `23505`. An update or delete sees only the user's rows: others' rows are silently left
///   alone. A read returns only the user's rows.
/// - Every write request is checked as it arrives, before any fault: when the token's user is
///   not the owner of a row it touches (an insert's rows; the rows an update or delete
///   targets, or, if gone, the owner the key was first inserted with), it counts as a
///   wrong-user request.
/// - Each request draws one fault (or none) from ``FaultRates``: the answer lost after the
///   write was applied, a 503 PostgREST error, a 520 HTML page from a proxy, a 200 HTML page
///   from a captive portal (not applied), or the write applied and a 200 HTML page returned.
///
/// Each request is answered in one step of the actor, with no suspension: requests never
/// interleave. Only `eq` and `in` filters and the parameters the engine sends with them are
/// understood.
actor RowSecurityServer: HTTPTransport {
    /// How likely each fault is, per request (the rest are answered normally).
    struct FaultRates: Sendable {
        static let none = FaultRates()

        var lostAfterApplying: Double = 0
        var unavailable: Double = 0
        var proxyPage: Double = 0
        var portalPage: Double = 0
        var portalPageAfterApplying: Double = 0
    }

    enum Fault: String, Sendable, CaseIterable {
        /// Applied, then the connection drops before the answer arrives.
        case lostAfterApplying
        /// 503 with PostgREST's schema-cache error (sometimes with `Retry-After: 1`); not applied.
        case unavailable
        /// 520 with an HTML page; not applied.
        case proxyPage
        /// 200 with a captive portal's HTML page; not applied.
        case portalPage
        /// Applied, then 200 with an HTML page instead of PostgREST's answer.
        case portalPageAfterApplying
    }

    /// A write request as it arrived: its method, the keys it names (an insert's rows' keys,
    /// an update's or delete's `eq` key filter) and its body's rows.
    struct Sighting: Sendable {
        var method: HTTPMethod
        var keys: [String]
        var rows: [Row]
    }

    /// A change the server applied to one row.
    enum Change: Sendable, Hashable {
        case inserted(Row)
        case updated(Row)
        case deleted
    }

    /// What the server holds and saw.
    struct Report: Sendable {
        /// The table's rows, by key (lowercased).
        var rows: [String: Row]
        /// Every change applied, per key, in order.
        var history: [String: [Change]]
        var writeRequests: Int
        var wrongUserRequests: Int
        /// A few of the wrong-user requests, described, for the failure message.
        var wrongUserSamples: [String]
        var faults: [Fault: Int]
    }

    let table: String
    let keyColumn: String
    let ownerColumn: String
    private let apiKey: String
    private let rates: FaultRates
    private var random: SeededRandom
    private let onWrite: @Sendable (Sighting) -> Void

    private var rows: [String: Row] = [:]
    private var history: [String: [Change]] = [:]
    private var firstOwner: [String: String] = [:]
    private var writeRequests = 0
    private var wrongUserRequests = 0
    private var wrongUserSamples: [String] = []
    private var faults: [Fault: Int] = [:]

    /// - Parameter onWrite: told of every write request as it arrives, before it is answered.
    init(
        table: String = "items", keyColumn: String = "id", ownerColumn: String = "owner",
        apiKey: String, faults: FaultRates, seed: UInt64,
        onWrite: @escaping @Sendable (Sighting) -> Void = { _ in }
    ) {
        self.table = table
        self.keyColumn = keyColumn
        self.ownerColumn = ownerColumn
        self.apiKey = apiKey
        rates = faults
        random = SeededRandom(seed: seed)
        self.onWrite = onWrite
    }

    func report() -> Report {
        Report(
            rows: rows, history: history, writeRequests: writeRequests, wrongUserRequests: wrongUserRequests,
            wrongUserSamples: wrongUserSamples, faults: faults)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let parsed: Parsed
        do {
            parsed = try parse(request)
        } catch let refusal as Refusal {
            return refusal.response
        }
        if request.method != .get {
            onWrite(Sighting(method: request.method, keys: parsed.keys, rows: parsed.rows))
            audit(request, parsed)
        }
        let fault = drawFault()
        if let fault { faults[fault, default: 0] += 1 }
        switch fault {
        case .unavailable: return Self.unavailable(retryAfter: random.chance(probability: 0.5))
        case .proxyPage: return Self.page(status: 520, "520: Web server is returning an unknown error")
        case .portalPage: return Self.page(status: 200, "Sign in to continue to the Wi-Fi network")
        case .lostAfterApplying, .portalPageAfterApplying, nil: break
        }
        let response: HTTPResponse
        do {
            response = try answer(request, parsed)
        } catch let refusal as Refusal {
            response = refusal.response
        }
        switch fault {
        case .lostAfterApplying: throw TransportError(kind: .connectionLost)
        case .portalPageAfterApplying:
            return Self.page(status: 200, "Sign in to continue to the Wi-Fi network")
        default: return response
        }
    }

    // MARK: Requests

    private struct Parsed {
        /// The token's user; `nil` for the API key.
        var user: String?
        var filters: [(column: String, values: [String])]
        var rows: [Row]
        var keys: [String]
        var prefer: String
    }

    private func parse(_ request: HTTPRequest) throws -> Parsed {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            components.path.hasSuffix("/rest/v1/\(table)")
        else { throw Refusal(status: 404, code: "PGRST205", message: "Could not find the table") }
        let bearer = request.headers["Authorization"] ?? ""
        let user: String?
        if bearer == "Bearer \(apiKey)" {
            user = nil
        } else if bearer.hasPrefix("Bearer token-"), bearer.count > "Bearer token-".count {
            user = String(bearer.dropFirst("Bearer token-".count))
        } else {
            throw Refusal(status: 401, code: "PGRST301", message: "JWT invalid")
        }
        let ignored: Set<String> = ["select", "order", "limit", "offset", "on_conflict", "columns"]
        var filters: [(column: String, values: [String])] = []
        for item in components.queryItems ?? [] where !ignored.contains(item.name) {
            if let value = item.value, value.hasPrefix("eq.") {
                filters.append((item.name, [String(value.dropFirst(3))]))
            } else if let value = item.value, value.hasPrefix("in.("), value.hasSuffix(")") {
                let list = value.dropFirst(4).dropLast().split(
                    separator: ",", omittingEmptySubsequences: false)
                filters.append(
                    (item.name, list.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }))
            } else {
                throw Refusal(
                    status: 400, code: "PGRST100", message: "The stand-in understands eq and in only")
            }
        }
        var rows: [Row] = []
        if request.method == .post || request.method == .patch {
            guard let body = request.body, let json = try? JSONText.parse(body),
                let parsedRows = try? Row.rows(from: json), !parsedRows.isEmpty
            else { throw Refusal(status: 400, code: "PGRST102", message: "Empty or invalid json") }
            rows = parsedRows
        }
        let keys =
            request.method == .post
            ? rows.map { Self.text($0[keyColumn]).lowercased() }
            : filters.filter { $0.column == keyColumn }.flatMap(\.values).map { $0.lowercased() }
        return Parsed(
            user: user, filters: filters, rows: rows, keys: keys, prefer: request.headers["Prefer"] ?? "")
    }

    /// Counts a write whose token's user is not the owner of a row it touches.
    private func audit(_ request: HTTPRequest, _ parsed: Parsed) {
        writeRequests += 1
        var owners: [String] = []
        if request.method == .post {
            for row in parsed.rows {
                let key = Self.text(row[keyColumn]).lowercased()
                let owner = Self.text(row[ownerColumn])
                if firstOwner[key] == nil { firstOwner[key] = owner }
                owners.append(owner)
            }
        } else {
            let targets = matching(parsed.filters)
            owners = targets.map { Self.text($0.row[ownerColumn]) }
            if targets.isEmpty { owners = parsed.keys.compactMap { firstOwner[$0] } }
        }
        guard owners.contains(where: { $0 != parsed.user }) else { return }
        wrongUserRequests += 1
        if wrongUserSamples.count < 5 {
            wrongUserSamples.append(
                "\(request.method.rawValue) \(parsed.keys.joined(separator: ",")) owned by "
                    + "\(owners.joined(separator: ",")) sent as \(parsed.user ?? "no user")")
        }
    }

    private func drawFault() -> Fault? {
        var roll = Double.random(in: 0..<1, using: &random)
        let chances: [(Fault, Double)] = [
            (.lostAfterApplying, rates.lostAfterApplying), (.unavailable, rates.unavailable),
            (.proxyPage, rates.proxyPage), (.portalPage, rates.portalPage),
            (.portalPageAfterApplying, rates.portalPageAfterApplying),
        ]
        for (fault, chance) in chances {
            if roll < chance { return fault }
            roll -= chance
        }
        return nil
    }

    // MARK: Answers

    private func answer(_ request: HTTPRequest, _ parsed: Parsed) throws -> HTTPResponse {
        guard let user = parsed.user else {
            throw Refusal(status: 401, code: "42501", message: "permission denied for table \(table)")
        }
        let wantsRows = parsed.prefer.contains("return=representation")
        switch request.method {
        case .get, .head:
            return Self.json(
                matching(parsed.filters).map(\.row).filter { Self.text($0[ownerColumn]) == user })
        case .post:
            let written = try insert(parsed.rows, as: user, prefer: parsed.prefer)
            return wantsRows ? Self.json(written, status: 201) : minimalWriteResponse(status: 201)
        case .patch, .delete:
            guard !parsed.filters.isEmpty else {
                throw Refusal(status: 400, code: "21000", message: "UPDATE or DELETE requires a WHERE clause")
            }
            let visible = matching(parsed.filters).filter { Self.text($0.row[ownerColumn]) == user }
            var written: [Row] = []
            if request.method == .patch {
                let patch = parsed.rows.reduce(Row([:])) { $0.merging($1) }
                if let owner = patch[ownerColumn], Self.text(owner) != user { throw Self.rowSecurity(table) }
                for (key, row) in visible {
                    rows[key] = row.merging(patch)
                    history[key, default: []].append(.updated(patch))
                    written.append(row.merging(patch))
                }
            } else {
                for (key, row) in visible {
                    rows[key] = nil
                    history[key, default: []].append(.deleted)
                    written.append(row)
                }
            }
            return wantsRows ? Self.json(written) : minimalWriteResponse(status: 204)
        }
    }

    private func insert(_ sent: [Row], as user: String, prefer: String) throws -> [Row] {
        guard sent.allSatisfy({ Self.text($0[ownerColumn]) == user }) else { throw Self.rowSecurity(table) }
        let merge = prefer.contains("resolution=merge-duplicates")
        let ignore = prefer.contains("resolution=ignore-duplicates")
        for row in sent {
            guard let existing = rows[Self.text(row[keyColumn]).lowercased()] else { continue }
            if ignore { continue }
            guard merge else {
                throw Refusal(
                    status: 409, code: "23505",
                    message: "duplicate key value violates unique constraint \"\(table)_pkey\"",
                    details: "Key already exists.")
            }
            if Self.text(existing[ownerColumn]) != user { throw Self.rowSecurity(table) }
        }
        var written: [Row] = []
        for row in sent {
            let key = Self.text(row[keyColumn]).lowercased()
            if let existing = rows[key] {
                guard merge else { continue }
                rows[key] = existing.merging(row)
                history[key, default: []].append(.updated(row))
            } else {
                rows[key] = row
                history[key, default: []].append(.inserted(row))
            }
            written.append(rows[key] ?? row)
        }
        return written
    }

    /// The rows the filters match, found by key when they pin one.
    private func matching(_ filters: [(column: String, values: [String])]) -> [(key: String, row: Row)] {
        if let pinned = filters.first(where: { $0.column == keyColumn }) {
            return Set(pinned.values.map { $0.lowercased() }).sorted().compactMap { key in
                guard let row = rows[key], matches(row, filters) else { return nil }
                return (key, row)
            }
        }
        return rows.filter { matches($0.value, filters) }.map { ($0.key, $0.value) }
    }

    private func matches(_ row: Row, _ filters: [(column: String, values: [String])]) -> Bool {
        filters.allSatisfy { filter in
            let text = Self.text(row[filter.column]).lowercased()
            return filter.values.contains { $0.lowercased() == text }
        }
    }

    // MARK: Responses

    private struct Refusal: Error {
        let response: HTTPResponse

        init(status: Int, code: String, message: String, details: String? = nil) {
            response = errorResponse(status: status, code: code, message: message, details: details)
        }
    }

    private static func rowSecurity(_ table: String) -> Refusal {
        Refusal(
            status: 403, code: "42501",
            message: "new row violates row-level security policy for table \"\(table)\"")
    }

    private static func unavailable(retryAfter: Bool) -> HTTPResponse {
        var response = Refusal(
            status: 503, code: "PGRST002",
            message: "Could not query the database for the schema cache. Retrying."
        ).response
        if retryAfter { response.headers["Retry-After"] = "1" }
        return response
    }

    private static func page(status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/html; charset=utf-8"],
            body: Data(
                "<!DOCTYPE html><html><head><title>\(text)</title></head><body><h1>\(text)</h1></body></html>"
                    .utf8))
    }

    private static func json(_ rows: [Row], status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [
                "Content-Type": "application/json; charset=utf-8",
                "Content-Range": readRange(rows.count),
            ],
            body: JSONText.data(.array(rows.map(\.json))))
    }

    /// A value as PostgREST's filters compare it: text as is, anything else as JSON.
    static func text(_ value: JSONValue?) -> String {
        guard let value else { return "" }
        return value.stringValue ?? value.description
    }
}
