/// Counts and `Content-Range` on writes, as PostgREST's `Response.hs` answers them (the spec
/// files check only some combinations; these are the ones the engine reads): a PATCH's range is
/// `0-(n-1)/total`, a POST's and a DELETE's `*/total`, the total `*` without `count=exact`.
enum WriteCountCases {
    static let spec = "Response.hs"
    static let exactMinimal = ["Prefer": "count=exact, return=minimal"]

    static let cases: [FidelityCase] = [
        .send(
            spec, "UpdateSpec: can update a single item, with count=exact", .patch, "items?id=eq.2",
            headers: exactMinimal, payload: #"{ "id":42 }"#, status: 204, body: .empty,
            expect: ["Content-Type": nil, "Content-Range": "0-0/1"]),
        .send(
            spec, "UpdateSpec: returns status code 204 when no rows updated, with count=exact", .patch,
            "items?id=eq.99999999", headers: exactMinimal, payload: #"{ "id": 42 }"#, status: 204,
            body: .empty,
            expect: ["Content-Range": "*/0"]),
        .send(
            spec, "UpdateSpec: can update multiple items, with count=exact", .patch, "no_pk?b=eq.0",
            headers: exactMinimal, payload: #"{ "b": "1" }"#, status: 204, body: .empty,
            expect: ["Content-Range": "0-1/2"]),
        .send(
            spec, "UpdateSpec: returns updated object as array when return=rep, with count=exact", .patch,
            "items?id=eq.2", headers: ["Prefer": "return=representation, count=exact"],
            payload: #"{ "id":2 }"#,
            status: 200, json: #"[{"id":2}]"#, expect: ["Content-Range": "0-0/1"]),
        .send(
            spec, "DeleteSpec: succeeds with 204 and deletion count, with count=exact", .delete,
            "items?id=eq.1",
            headers: exactMinimal, status: 204, body: .empty,
            expect: ["Content-Type": nil, "Content-Range": "*/1"]),
        .send(
            spec, "DeleteSpec: no records matched, with count=exact", .delete, "items?id=eq.101",
            headers: exactMinimal,
            status: 204, body: .empty, expect: ["Content-Range": "*/0"]),
        .send(
            spec, "DeleteSpec: deleting several rows without a count", .delete, "items?id=lte.3", status: 204,
            body: .empty, expect: ["Content-Range": "*/*"]),
        .send(
            spec, "InsertSpec: succeeds and returns 201 created, with count=exact", .post, "simple_pk",
            headers: exactMinimal, payload: #"{ "k":"k1", "extra":"e1" }"#, status: 201, body: .empty,
            expect: ["Content-Type": nil, "Content-Range": "*/1"]),
        .send(
            spec, "InsertSpec: with bulk insert, without a count", .post, "compound_pk",
            payload: #"[{"k1":21, "k2":"hello world"}, {"k1":22, "k2":"bye for now"}]"#, status: 201,
            body: .empty,
            expect: ["Content-Range": "*/*"]),
        .send(
            spec, "InsertSpec: return=representation with count=exact", .post, "compound_pk",
            headers: ["Prefer": "return=representation, count=exact"], payload: #"[{"k1":31, "k2":"x"}]"#,
            status: 201, json: #"[{"k1":31,"k2":"x","extra":null}]"#, expect: ["Content-Range": "*/1"]),
    ]
}
