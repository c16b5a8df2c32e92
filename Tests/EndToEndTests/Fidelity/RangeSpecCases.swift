/// Ranges and counts on reads from PostgREST's `RangeSpec.hs` (`GET /items`; `menagerie` is its
/// empty table). The 416 answers' bodies come from `Response.hs` and `Error.hs`.
enum RangeSpecCases {
    static let spec = "RangeSpec.hs"
    static func ids(_ range: ClosedRange<Int>) -> String {
        "[" + range.map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]"
    }
    static let exact = ["Prefer": "count=exact"]

    static func unsatisfiable(_ details: String) -> String {
        #"{"message":"Requested range not satisfiable","code":"PGRST103","details":"\#(details)","hint":null}"#
    }

    static let cases: [FidelityCase] = [
        .get(spec, "returns whole range with status 200", "items", status: 200),
        .get(
            spec, "count with an empty body returns empty body with Content-Range */0", "items?id=eq.0",
            headers: exact,
            json: "[]", expect: ["Content-Range": "*/0"]),
        .get(
            spec, "when I don't want the count returns range Content-Range with /*", "menagerie",
            headers: ["Prefer": "count=none"], json: "[]", expect: ["Content-Range": "*/*"]),
        .get(
            spec, "returns range Content-Range with range/*", "items?order=id",
            headers: ["Prefer": "count=none"],
            json: ids(1...15), expect: ["Content-Range": "0-14/*"]),
        .get(
            spec, "returns range Content-Range with range/* even using other filters",
            "items?id=eq.1&order=id",
            headers: ["Prefer": "count=none"], json: #"[{"id":1}]"#, expect: ["Content-Range": "0-0/*"]),
        .get(
            spec, "top level limit with parameter", "items?select=id&order=id.asc&limit=3", json: ids(1...3),
            expect: ["Content-Range": "0-2/*"]),
        .get(
            spec, "headers override get parameters", "items?select=id&order=id.asc&limit=3",
            headers: ["Range-Unit": "items", "Range": "0-1"], json: ids(1...2),
            expect: ["Content-Range": "0-1/*"]),
        .get(
            spec, "limit and offset works on first level", "items?select=id&order=id.asc&limit=3&offset=2",
            json: ids(3...5), expect: ["Content-Range": "2-4/*"]),
        FidelityCase(
            spec: spec, name: "limit and offset works on first level (HEAD)",
            steps: [
                FidelityStep(
                    method: .head, path: "items?select=id&order=id.asc&limit=3&offset=2", status: 200,
                    expectedBody: .empty,
                    expectedHeaders: [
                        "Content-Type": "application/json; charset=utf-8", "Content-Range": "2-4/*",
                    ])
            ]),
        .get(
            spec, "succeeds if offset equals 0 as a no-op (no items)", "items?offset=0&id=eq.0", json: "[]",
            expect: ["Content-Range": "*/*"]),
        .get(
            spec, "succeeds if offset equals 0 as a no-op (no items, count=exact)", "items?offset=0&id=eq.0",
            headers: exact, json: "[]", expect: ["Content-Range": "*/0"]),
        .get(
            spec, "succeeds if offset equals 0 as a no-op (one or more items)",
            "items?select=id&offset=0&order=id",
            json: ids(1...15), expect: ["Content-Range": "0-14/*"]),
        .get(
            spec, "succeeds if offset is negative as a no-op", "items?select=id&offset=-4&order=id",
            json: ids(1...15),
            expect: ["Content-Range": "0-14/*"]),
        .get(
            spec, "succeeds and returns an empty array if limit equals 0", "items?select=id&limit=0",
            json: "[]",
            expect: ["Content-Range": "*/*"]),
        .get(
            spec, "fails if limit is negative", "items?select=id&limit=-1", status: 416,
            json: unsatisfiable("Limit should be greater than or equal to zero."),
            expect: ["Content-Type": "application/json; charset=utf-8"]),
        .get(
            spec, "refuses a range with nonzero start when there are no items (offset)", "menagerie?offset=1",
            headers: exact, status: 416,
            json: unsatisfiable("An offset of 1 was requested, but there are only 0 rows."),
            expect: ["Content-Range": "*/0"]),
        .get(
            spec, "refuses a range requesting start past last item (offset)", "items?offset=100",
            headers: exact,
            status: 416, json: unsatisfiable("An offset of 100 was requested, but there are only 15 rows."),
            expect: ["Content-Range": "*/15"]),
        .get(
            spec, "succeeds with partial content", "items", headers: ["Range-Unit": "items", "Range": "0-1"],
            status: 200, expect: ["Content-Range": "0-1/*"]),
        .get(
            spec, "understands open-ended ranges", "items", headers: ["Range-Unit": "items", "Range": "0-"],
            status: 200),
        .get(
            spec, "returns an empty body when there are no results", "menagerie",
            headers: ["Range-Unit": "items", "Range": "0-1"], json: "[]", expect: ["Content-Range": "*/*"]),
        .get(
            spec, "allows one-item requests", "items", headers: ["Range-Unit": "items", "Range": "0-0"],
            expect: ["Content-Range": "0-0/*"]),
        .get(
            spec, "handles ranges beyond collection length via truncation", "items",
            headers: ["Range-Unit": "items", "Range": "10-100"], expect: ["Content-Range": "10-14/*"]),
        .get(
            spec, "fails with 416 for offside range", "items",
            headers: ["Range-Unit": "items", "Range": "1-0"],
            status: 416,
            json: unsatisfiable(
                "The lower boundary must be lower than or equal to the upper boundary in the Range header.")),
        .get(
            spec, "refuses a range with nonzero start when there are no items (Range)", "menagerie",
            headers: ["Range-Unit": "items", "Range": "1-2", "Prefer": "count=exact"], status: 416,
            json: unsatisfiable("An offset of 1 was requested, but there are only 0 rows."),
            expect: ["Content-Range": "*/0"]),
        .get(
            spec, "refuses a range requesting start past last item (Range)", "items",
            headers: ["Range-Unit": "items", "Range": "100-199", "Prefer": "count=exact"], status: 416,
            json: unsatisfiable("An offset of 100 was requested, but there are only 15 rows."),
            expect: ["Content-Range": "*/15"]),
        .get(
            spec, "count=exact on a partial range answers 206 with the total (Response.hs rangeStatusHeader)",
            "items?select=id&order=id&limit=2", headers: exact, status: 206, json: ids(1...2),
            expect: ["Content-Range": "0-1/15"]),
        .get(
            spec, "count=exact on the whole range answers 200 with the total (Response.hs rangeStatusHeader)",
            "items?select=id&id=lte.3&order=id", headers: exact, status: 200, json: ids(1...3),
            expect: ["Content-Range": "0-2/3"]),
    ]
}
