/// Upserts from PostgREST's `UpsertSpec.hs` (POST with `Prefer: resolution=...`), each in a
/// fresh copy of the fixture.
enum UpsertSpecCases {
    static let spec = "UpsertSpec.hs"
    static let merge = ["Prefer": "return=representation, resolution=merge-duplicates"]
    static let ignore = ["Prefer": "return=representation, resolution=ignore-duplicates"]

    static let cases: [FidelityCase] = [
        .send(
            spec, "INSERTs and UPDATEs rows on pk conflict", .post, "tiobe_pls", headers: merge,
            payload:
                #"[{ "name": "Javascript", "rank": 6 },{ "name": "Java", "rank": 2 },{ "name": "C", "rank": 1 }]"#,
            status: 201,
            json:
                #"[{ "name": "Javascript", "rank": 6 },{ "name": "Java", "rank": 2 },{ "name": "C", "rank": 1 }]"#
        ),
        .send(
            spec, "UPDATEs rows on pk conflict", .post, "tiobe_pls", headers: merge,
            payload:
                #"[{ "name": "Python", "rank": 6 },{ "name": "Java", "rank": 2 },{ "name": "C", "rank": 1 }]"#,
            status: 200,
            json:
                #"[{ "name": "Python", "rank": 6 },{ "name": "Java", "rank": 2 },{ "name": "C", "rank": 1 }]"#
        ),
        .send(
            spec, "INSERTs and UPDATEs row on composite pk conflict", .post, "employees", headers: merge,
            payload: #"""
                [{ "first_name": "Frances M.", "last_name": "Roe", "salary": "30000" },
                { "first_name": "Peter S.", "last_name": "Yang", "salary": 42000 }]
                """#, status: 201,
            json: #"""
                [{ "first_name": "Frances M.", "last_name": "Roe", "salary": "$30,000.00", "company": "One-Up Realty", "occupation": "Author" },
                { "first_name": "Peter S.", "last_name": "Yang", "salary": "$42,000.00", "company": null, "occupation": null }]
                """#),
        .send(
            spec, "succeeds when the payload has no elements", .post, "articles", headers: merge,
            payload: "[]",
            status: 200, json: "[]"),
        .send(
            spec, "INSERTs and UPDATEs rows on single unique key conflict", .post,
            "single_unique?on_conflict=unique_key",
            headers: merge,
            payload: #"[{ "unique_key": 1, "value": "B" },{ "unique_key": 2, "value": "C" }]"#,
            status: 201, json: #"[{ "unique_key": 1, "value": "B" },{ "unique_key": 2, "value": "C" }]"#),
        .send(
            spec, "INSERTs and UPDATEs rows on compound unique keys conflict", .post,
            "compound_unique?on_conflict=key1,key2", headers: merge,
            payload: #"[{ "key1": 1, "key2": 1, "value": "B" },{ "key1": 1, "key2": 2, "value": "C" }]"#,
            status: 201,
            json: #"[{ "key1": 1, "key2": 1, "value": "B" },{ "key1": 1, "key2": 2, "value": "C" }]"#),
        .send(
            spec, "INSERTs and UPDATEs rows with SERIAL surrogate primary keys using Prefer: missing=default",
            .post,
            "surr_serial_upsert?columns=id,name&select=name,extra",
            headers: ["Prefer": "return=representation, resolution=merge-duplicates, missing=default"],
            payload: #"[{ "id": 1, "name": "updated value" },{ "name": "new value" }]"#, status: 201,
            json:
                #"[{ "name": "updated value", "extra": "existing value" },{ "name": "new value", "extra": null }]"#
        ),
        .send(
            spec, "succeeds if the table has only PK cols and no other cols", .post, "only_pk",
            headers: merge,
            payload: #"[{ "id": 1 }, { "id": 2 }, { "id": 4 }]"#, status: 201,
            json: #"[{ "id": 1 }, { "id": 2 }, { "id": 4 }]"#),
        .send(
            spec, "succeeds and ignores the Prefer: resolution header if the table has no PK", .post, "no_pk",
            headers: merge, payload: #"[{ "a": "1", "b": "0" }]"#, status: 201,
            json: #"[{ "a": "1", "b": "0" }]"#),
        .send(
            spec, "INSERTs and ignores rows on pk conflict", .post, "tiobe_pls", headers: ignore,
            payload: #"[{ "name": "PHP", "rank": 9 },{ "name": "Python", "rank": 10 }]"#, status: 201,
            json: #"[{ "name": "PHP", "rank": 9 }]"#),
        .send(
            spec, "INSERTs and ignores rows on composite pk conflict", .post, "employees", headers: ignore,
            payload: #"""
                [{ "first_name": "Daniel B.", "last_name": "Lyon", "salary": "72000", "company": null, "occupation": null },
                { "first_name": "Sara M.", "last_name": "Torpey", "salary": 60000, "company": "Burstein-Applebee", "occupation": "Soil scientist" }]
                """#, status: 201,
            json: #"""
                [{ "first_name": "Sara M.", "last_name": "Torpey", "salary": "$60,000.00", "company": "Burstein-Applebee", "occupation": "Soil scientist" }]
                """#),
        .send(
            spec, "INSERTs and ignores rows on single unique key conflict", .post,
            "single_unique?on_conflict=unique_key",
            headers: ignore,
            payload:
                #"[{ "unique_key": 1, "value": "B" },{ "unique_key": 2, "value": "C" },{ "unique_key": 3, "value": "D" }]"#,
            status: 201, json: #"[{ "unique_key": 2, "value": "C" },{ "unique_key": 3, "value": "D" }]"#),
        .send(
            spec, "succeeds if the table has only PK cols and no other cols (ignore-duplicates)", .post,
            "only_pk",
            headers: ignore, payload: #"[{ "id": 1 }, { "id": 2 }, { "id": 3 }]"#, status: 201,
            json: #"[{ "id": 3 }]"#),
        .send(
            spec, "succeeds if not a single resource is created", .post, "tiobe_pls", headers: ignore,
            payload: #"[{ "name": "Java", "rank": 1 }]"#, status: 201, json: "[]"),
        .send(
            spec, "UPDATEs rows on pk conflict, without return= (Response.hs: 200 when nothing was inserted)",
            .post,
            "tiobe_pls", headers: ["Prefer": "resolution=merge-duplicates"],
            payload: #"[{ "name": "Java", "rank": 3 }]"#, status: 200, body: .empty,
            expect: ["Content-Type": nil]
        ).then("tiobe_pls?name=eq.Java", json: #"[{"name":"Java","rank":3}]"#),
    ]
}
