import Foundation
import Testing

@testable import OfflineEngine

/// One request-building case: what is built and exactly what must go out.
struct RequestCase: Sendable, CustomTestStringConvertible {
    let name: String
    let build: @Sendable () throws -> HTTPRequest
    let method: HTTPMethod
    /// Path and percent-encoded query, as they appear after the host.
    let target: String
    let headers: [String: String]
    let body: String?

    var testDescription: String { name }
}

private let endpoint = RESTEndpoint(url: URL(string: "https://abc.supabase.co")!, apiKey: "anon-key")
private let tasks = TableQuery(table: "tasks")

private func get(_ query: ReadQuery, token: String? = nil) -> @Sendable () throws -> HTTPRequest {
    { try RequestBuilder.request(for: query.query, endpoint: endpoint, accessToken: token) }
}

private func send(_ write: @escaping @Sendable () throws -> WriteQuery, token: String? = nil)
    -> @Sendable () throws -> HTTPRequest
{
    { try RequestBuilder.request(for: write().mutation, endpoint: endpoint, accessToken: token) }
}

private func readHeaders(token: String = "anon-key", _ extra: [String: String] = [:]) -> [String: String] {
    ["apikey": "anon-key", "Authorization": "Bearer \(token)", "Accept": "application/json"]
        .merging(extra) { _, new in new }
}

private func writeHeaders(
    prefer: String, body: Bool = true, token: String = "anon-key", _ extra: [String: String] = [:]
) -> [String: String] {
    var headers = readHeaders(token: token, extra)
    headers["Prefer"] = prefer
    if body { headers["Content-Type"] = "application/json" }
    return headers
}

private func read(
    _ name: String, _ query: ReadQuery, _ encodedQuery: String, headers: [String: String]? = nil,
    token: String? = nil, table: String = "tasks"
) -> RequestCase {
    RequestCase(
        name: name, build: get(query, token: token), method: .get,
        target: "/rest/v1/\(table)?\(encodedQuery)",
        headers: headers ?? readHeaders(token: token ?? "anon-key"), body: nil)
}

private struct NewTask: Encodable, Sendable {
    var id: Int
    var title: String
}

private struct DatedTask: Encodable, Sendable {
    var id: Int
    var due: Date
}

let requestCases: [RequestCase] = [
    read("default select", tasks.select(), "select=%2A"),
    read("select without whitespace", tasks.select("id, title,\n done"), "select=id%2Ctitle%2Cdone"),
    read("select alias and cast", tasks.select("due:due_at::text"), "select=due%3Adue_at%3A%3Atext"),
    read(
        "eq with + in a timestamp", tasks.select().eq("created_at", value: "2024-01-15T12:00:00+02:00"),
        "select=%2A&created_at=eq.2024-01-15T12%3A00%3A00%2B02%3A00"),
    read("eq false", tasks.select().eq("done", value: false), "select=%2A&done=eq.false"),
    read(
        "comparisons in order",
        tasks.select().eq("a", value: 1).neq("b", value: 2).gt("c", value: 3).gte("d", value: 4)
            .lt("e", value: 5).lte("f", value: 6.5),
        "select=%2A&a=eq.1&b=neq.2&c=gt.3&d=gte.4&e=lt.5&f=lte.6.5"),
    read(
        "like and ilike", tasks.select().like("title", pattern: "*milk*").ilike("note", value: "%a_b%"),
        "select=%2A&title=like.%2Amilk%2A&note=ilike.%25a_b%25"),
    read(
        "uuid in lower case",
        tasks.select().eq("id", value: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
        "select=%2A&id=eq.e621e1f8-c36c-495a-93fc-0c247a3e6e5f"),
    read(
        "value with & = and a top-level quote kept verbatim", tasks.select().eq("q", value: "a&b=\"c\""),
        "select=%2A&q=eq.a%26b%3D%22c%22"),
    read(
        "non-ASCII value", tasks.select().eq("title", value: "café ☕"),
        "select=%2A&title=eq.caf%C3%A9%20%E2%98%95"),
    read("in with integers", tasks.select().in("id", values: [1, 2, 3]), "select=%2A&id=in.%281%2C2%2C3%29"),
    read(
        "in with commas", tasks.select().in("name", values: ["Hebdon, John", "plain"]),
        "select=%2A&name=in.%28%22Hebdon%2C%20John%22%2Cplain%29"),
    read(
        "in with quotes and backslashes", tasks.select().in("name", values: ["say \"hi\"", "back\\slash"]),
        "select=%2A&name=in.%28%22say%20%5C%22hi%5C%22%22%2C%22back%5C%5Cslash%22%29"),
    read(
        "in with parentheses and a colon", tasks.select().in("name", values: ["(a)", "b)", "c:d"]),
        "select=%2A&name=in.%28%22%28a%29%22%2C%22b%29%22%2C%22c%3Ad%22%29"),
    read(
        "in with edge spaces", tasks.select().in("name", values: [" lead", "trail ", "mid dle"]),
        "select=%2A&name=in.%28%22%20lead%22%2C%22trail%20%22%2Cmid%20dle%29"),
    read("in with no values", tasks.select().in("id", values: [Int]()), "select=%2A&id=in.%28%29"),
    read(
        "in with an empty string", tasks.select().in("name", values: [""]),
        "select=%2A&name=in.%28%22%22%29"),
    read("is null", tasks.select().is("deleted_at", value: nil), "select=%2A&deleted_at=is.null"),
    read("is true", tasks.select().is("done", value: true), "select=%2A&done=is.true"),
    read(
        "not in", tasks.select().not("id", operator: "in", value: "(1,2)"), "select=%2A&id=not.in.%281%2C2%29"
    ),
    read(
        "not eq and not is null",
        tasks.select().not("status", operator: "eq", value: "done").not("a", operator: "is", value: "null"),
        "select=%2A&status=not.eq.done&a=not.is.null"),
    read(
        "filter with a quoted in-list", tasks.select().filter("tag", operator: "in", value: "(1,\"a,b\")"),
        "select=%2A&tag=in.%281%2C%22a%2Cb%22%29"),
    read(
        "or of two conditions", tasks.select().or("age.lt.18,age.gt.21"),
        "select=%2A&or=%28age.lt.18%2Cage.gt.21%29"),
    read(
        "or with a quoted value and an in-list", tasks.select().or("name.eq.\"Hebdon, John\",id.in.(1, 2)"),
        "select=%2A&or=%28name.eq.%22Hebdon%2C%20John%22%2Cid.in.%281%2C%22%202%22%29%29"),
    read(
        "or with a nested not.and",
        tasks.select().eq("grade", value: 90).or("a.eq.1, not.and(c.is.null,d.neq.2)"),
        "select=%2A&grade=eq.90&or=%28a.eq.1%2Cnot.and%28c.is.null%2Cd.neq.2%29%29"),
    read(
        "or the engine cannot read is sent verbatim", tasks.select().or("a.bogus.1"),
        "select=%2A&or=%28a.bogus.1%29"),
    read(
        "or on an embedded table",
        tasks.select("*,actors(*)").or("first_name.eq.A,first_name.eq.B", referencedTable: "actors"),
        "select=%2A%2Cactors%28%2A%29&actors.or=%28first_name.eq.A%2Cfirst_name.eq.B%29"),
    read(
        "order ascending says nulls last", tasks.select().order("created_at"),
        "select=%2A&order=created_at.asc.nullslast"),
    read(
        "order on several columns with nulls first",
        tasks.select().order("priority", ascending: false).order("due", nullsFirst: true)
            .order("id", ascending: false, nullsFirst: true),
        "select=%2A&order=priority.desc.nullslast%2Cdue.asc.nullsfirst%2Cid.desc.nullsfirst"),
    read("limit", tasks.select().limit(20), "select=%2A&limit=20"),
    read(
        "range is offset and limit", tasks.select().range(from: 10, to: 19), "select=%2A&limit=10&offset=10"),
    read(
        "parameters in a stable order",
        tasks.select("id").order("id").range(from: 0, to: 4).eq("done", value: true).limit(
            3, referencedTable: "tags"),
        "select=id&done=eq.true&order=id.asc.nullslast&limit=5&offset=0&tags.limit=3"),
    read(
        "embed filter, order, limit and range",
        TableQuery(table: "films").select("title,actors!inner(first_name)").eq(
            "actors.first_name", value: "Jehanne"
        )
        .in("actors.role", values: ["Chico", "a,b"])
        .order("last_name", referencedTable: "actors").order(
            "id", ascending: false, referencedTable: "actors"
        )
        .range(from: 2, to: 11, referencedTable: "actors"),
        "select=title%2Cactors%21inner%28first_name%29&actors.first_name=eq.Jehanne"
            + "&actors.role=in.%28Chico%2C%22a%2Cb%22%29"
            + "&actors.order=last_name.asc.nullslast%2Cid.desc.nullslast&actors.offset=2&actors.limit=10",
        table: "films"),
    read(
        "a quoted column with a dot stays a top-level filter",
        tasks.select().like("\"information.cpe\"", pattern: "*MS*"),
        "select=%2A&%22information.cpe%22=like.%2AMS%2A"),
    read(
        "schema other than public sends Accept-Profile",
        TableQuery(schema: "audit", table: "events").select(), "select=%2A",
        headers: readHeaders(["Accept-Profile": "audit"]), table: "events"),
    read(
        "schema public sends no profile", TableQuery(schema: "public", table: "tasks").select(),
        "select=%2A"),
    read("access token goes in Authorization", tasks.select(), "select=%2A", token: "user-jwt"),
    read(
        "non-ASCII table name is encoded in the path", TableQuery(table: "tâches").select(), "select=%2A",
        table: "t%C3%A2ches"),

    RequestCase(
        name: "insert one row", build: send { try tasks.insert(["id": 1, "title": "Milk"] as Row) },
        method: .post,
        target: "/rest/v1/tasks", headers: writeHeaders(prefer: "return=minimal"),
        body: #"[{"id":1,"title":"Milk"}]"#),
    RequestCase(
        name: "insert an Encodable struct and select it back",
        build: send { try tasks.insert(NewTask(id: 2, title: "Eggs + ham")).select() }, method: .post,
        target: "/rest/v1/tasks?select=%2A", headers: writeHeaders(prefer: "return=representation"),
        body: #"[{"id":2,"title":"Eggs + ham"}]"#),
    RequestCase(
        name: "a Date in a body keeps its milliseconds (ISO 8601 in UTC, as supabase-swift sends it)",
        build: send {
            try tasks.insert(DatedTask(id: 3, due: Date(timeIntervalSince1970: 1_700_000_000.123)))
        },
        method: .post, target: "/rest/v1/tasks", headers: writeHeaders(prefer: "return=minimal"),
        body: #"[{"due":"2023-11-14T22:13:20.123Z","id":3}]"#),
    read(
        "likeAllOf sends like(all) with a brace list",
        tasks.select().likeAllOf("title", patterns: ["*milk*", "*eggs*"]),
        "select=%2A&title=like%28all%29.%7B%2Amilk%2A%2C%2Aeggs%2A%7D"),
    read(
        "likeAnyOf sends like(any)", tasks.select().likeAnyOf("title", patterns: ["a*", "b*"]),
        "select=%2A&title=like%28any%29.%7Ba%2A%2Cb%2A%7D"),
    read(
        "iLikeAllOf sends ilike(all)", tasks.select().iLikeAllOf("title", patterns: ["*MILK*"]),
        "select=%2A&title=ilike%28all%29.%7B%2AMILK%2A%7D"),
    read(
        "ilikeAnyOf sends ilike(any)", tasks.select().ilikeAnyOf("title", patterns: ["a*", "B*"]),
        "select=%2A&title=ilike%28any%29.%7Ba%2A%2CB%2A%7D"),
    read(
        "notIn sends not.in with a quoted list", tasks.select().notIn("name", values: ["a,b", "c"]),
        "select=%2A&name=not.in.%28%22a%2Cb%22%2Cc%29"),
    read(
        "contains sends cs", tasks.select().contains("tags", value: "{a,b}"), "select=%2A&tags=cs.%7Ba%2Cb%7D"
    ),
    read(
        "containedBy sends cd", tasks.select().containedBy("tags", value: "{a,b,c}"),
        "select=%2A&tags=cd.%7Ba%2Cb%2Cc%7D"),
    read(
        "overlaps sends ov", tasks.select().overlaps("period", value: "[2000-01-01,2000-12-31]"),
        "select=%2A&period=ov.%5B2000-01-01%2C2000-12-31%5D"),
    read(
        "rangeLt sends sl", tasks.select().rangeLt("ages", range: "[10,20)"),
        "select=%2A&ages=sl.%5B10%2C20%29"),
    read(
        "rangeGt sends sr", tasks.select().rangeGt("ages", range: "(30,40]"),
        "select=%2A&ages=sr.%2830%2C40%5D"),
    read(
        "rangeGte sends nxl", tasks.select().rangeGte("ages", range: "[10,20)"),
        "select=%2A&ages=nxl.%5B10%2C20%29"),
    read(
        "rangeLte sends nxr", tasks.select().rangeLte("ages", range: "[10,20)"),
        "select=%2A&ages=nxr.%5B10%2C20%29"),
    read(
        "rangeAdjacent sends adj", tasks.select().rangeAdjacent("ages", range: "[10,20)"),
        "select=%2A&ages=adj.%5B10%2C20%29"),
    read(
        "textSearch sends fts", tasks.select().textSearch("body", query: "milk & eggs"),
        "select=%2A&body=fts.milk%20%26%20eggs"),
    read(
        "textSearch plain with a config sends plfts(config)",
        tasks.select().textSearch("body", query: "milk eggs", config: "english", type: .plain),
        "select=%2A&body=plfts%28english%29.milk%20eggs"),
    read(
        "textSearch phrase sends phfts", tasks.select().textSearch("body", query: "fat cats", type: .phrase),
        "select=%2A&body=phfts.fat%20cats"),
    read(
        "textSearch websearch sends wfts",
        tasks.select().textSearch("body", query: "rat or cat", config: "english", type: .websearch),
        "select=%2A&body=wfts%28english%29.rat%20or%20cat"),
    read(
        "match sends one eq per column, in column order", tasks.select().match(["id": 7, "done": false]),
        "select=%2A&done=eq.false&id=eq.7"),
    read(
        "not with a named operator", tasks.select().not("status", operator: .is, value: "null"),
        "select=%2A&status=not.is.null"),
    read(
        "a Date in a filter keeps its milliseconds",
        tasks.select().lt("due", value: Date(timeIntervalSince1970: 1_700_000_000.123)),
        "select=%2A&due=lt.2023-11-14T22%3A13%3A20.123Z"),
    RequestCase(
        name: "bulk insert with differing keys sends the union as columns",
        build: send { try tasks.insert([["id": 1, "title": "a"], ["id": 2, "done": true]] as [Row]) },
        method: .post, target: "/rest/v1/tasks?columns=%22done%22%2C%22id%22%2C%22title%22",
        headers: writeHeaders(prefer: "return=minimal"), body: #"[{"id":1,"title":"a"},{"done":true,"id":2}]"#
    ),
    RequestCase(
        name: "bulk insert of structs with missing=default",
        build: send {
            try tasks.insert([NewTask(id: 1, title: "a"), NewTask(id: 2, title: "b")])
                .useDefaultsForMissingColumns()
        },
        method: .post, target: "/rest/v1/tasks?columns=%22id%22%2C%22title%22",
        headers: writeHeaders(prefer: "return=minimal,missing=default"),
        body: #"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#),
    RequestCase(
        name: "upsert one row on conflict columns",
        build: send {
            try tasks.upsert(["sku": "x", "region": "eu", "qty": 2] as Row, onConflict: "sku, region")
        },
        method: .post, target: "/rest/v1/tasks?on_conflict=sku%2Cregion",
        headers: writeHeaders(prefer: "resolution=merge-duplicates,return=minimal"),
        body: #"[{"qty":2,"region":"eu","sku":"x"}]"#),
    RequestCase(
        name: "upsert ignoring duplicates, selecting columns back",
        build: send {
            try tasks.upsert(NewTask(id: 3, title: "c"), onConflict: "id", ignoreDuplicates: true).select(
                "id, title")
        },
        method: .post, target: "/rest/v1/tasks?on_conflict=id&select=id%2Ctitle",
        headers: writeHeaders(prefer: "resolution=ignore-duplicates,return=representation"),
        body: #"[{"id":3,"title":"c"}]"#),
    RequestCase(
        name: "bulk upsert with missing=default",
        build: send {
            try tasks.upsert([["id": 1, "a": 1], ["id": 2]] as [Row]).useDefaultsForMissingColumns()
        },
        method: .post, target: "/rest/v1/tasks?columns=%22a%22%2C%22id%22",
        headers: writeHeaders(prefer: "resolution=merge-duplicates,return=minimal,missing=default"),
        body: #"[{"a":1,"id":1},{"id":2}]"#),
    RequestCase(
        name: "update with a filter", build: send { try tasks.update(["done": true]).eq("id", value: 7) },
        method: .patch, target: "/rest/v1/tasks?id=eq.7", headers: writeHeaders(prefer: "return=minimal"),
        body: #"{"done":true}"#),
    RequestCase(
        name: "update of mixed values with select",
        build: send {
            try tasks.update(["done": true, "note": nil] as Row).in("id", values: [1, 2]).select()
        },
        method: .patch, target: "/rest/v1/tasks?id=in.%281%2C2%29&select=%2A",
        headers: writeHeaders(prefer: "return=representation"), body: #"{"done":true,"note":null}"#),
    RequestCase(
        name: "delete with an in filter", build: send { tasks.delete().in("id", values: [1, 2]) },
        method: .delete,
        target: "/rest/v1/tasks?id=in.%281%2C2%29",
        headers: writeHeaders(prefer: "return=minimal", body: false),
        body: nil),
    RequestCase(
        name: "delete selecting ids back",
        build: send { tasks.delete().eq("id", value: 1).or("a.is.null,b.eq.2").select("id") },
        method: .delete,
        target: "/rest/v1/tasks?id=eq.1&or=%28a.is.null%2Cb.eq.2%29&select=id",
        headers: writeHeaders(prefer: "return=representation", body: false), body: nil),
    RequestCase(
        name: "write to another schema sends Content-Profile",
        build: send { try TableQuery(schema: "audit", table: "events").insert(["id": 1] as Row) },
        method: .post,
        target: "/rest/v1/events",
        headers: writeHeaders(prefer: "return=minimal", ["Content-Profile": "audit"]),
        body: #"[{"id":1}]"#),
    RequestCase(
        name: "write with an access token",
        build: send({ tasks.delete().eq("id", value: 1) }, token: "user-jwt"), method: .delete,
        target: "/rest/v1/tasks?id=eq.1",
        headers: writeHeaders(prefer: "return=minimal", body: false, token: "user-jwt"),
        body: nil),
]

@Suite("Request building", .timeLimit(.minutes(10)))
struct RequestBuildingTests {
    @Test(
        "each read and write goes out with the exact method, URL, headers and body", arguments: requestCases)
    func exactRequest(_ testCase: RequestCase) throws {
        let request = try testCase.build()
        #expect(request.method == testCase.method)
        let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        #expect(components.scheme == "https" && components.host == "abc.supabase.co")
        let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        #expect(target == testCase.target)
        #expect(request.headers.dictionary == testCase.headers)
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == testCase.body)
    }

    @Test("the REST root keeps a path prefix and drops a trailing slash")
    func restRoot() throws {
        let nested = RESTEndpoint(url: URL(string: "http://localhost:54321/")!, apiKey: "k")
        let request = try RequestBuilder.request(
            for: tasks.select().query, endpoint: nested, accessToken: nil)
        #expect(request.url.absoluteString == "http://localhost:54321/rest/v1/tasks?select=%2A")
    }

    @Test("reads retry transport failures; writes are marked not to")
    func retryFlag() throws {
        let read = try RequestBuilder.request(for: tasks.select().query, endpoint: endpoint, accessToken: nil)
        let write = try RequestBuilder.request(
            for: tasks.delete().mutation, endpoint: endpoint, accessToken: nil)
        #expect(read.retriesTransportFailures && !write.retriesTransportFailures)
    }

    @Test("equal reads share a canonical key; different reads do not")
    func canonicalKey() {
        let first = tasks.select("id, title").eq("done", value: false).order("id").limit(5).query
        let same = tasks.select("id,title").eq("done", value: false).order("id").limit(5).query
        let other = tasks.select("id,title").eq("done", value: true).order("id").limit(5).query
        let otherSchema = TableQuery(schema: "audit", table: "tasks").select("id,title").eq(
            "done", value: false
        )
        .order("id").limit(5).query
        #expect(first.canonicalKey == same.canonicalKey)
        #expect(
            first.canonicalKey
                == "public/tasks?select=id%2Ctitle&done=eq.false&order=id.asc.nullslast&limit=5")
        #expect(Set([first, other, otherSchema].map(\.canonicalKey)).count == 3)
    }

    @Test("onConflict is split on commas and trimmed; the write keeps its options")
    func mutationFields() throws {
        let write = try tasks.upsert(["id": 1] as Row, onConflict: " a ,b,, c ", ignoreDuplicates: true)
            .select().useDefaultsForMissingColumns()
        #expect(write.mutation.onConflict == ["a", "b", "c"])
        #expect(write.mutation.ignoreDuplicates && write.mutation.useDefaultForMissing)
        #expect(write.mutation.returning == "*" && write.mutation.operation == .upsert)
    }
}
