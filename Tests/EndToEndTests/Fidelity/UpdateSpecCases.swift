/// Updates from PostgREST's `UpdateSpec.hs`, each in a fresh copy of the fixture.
enum UpdateSpecCases {
    static let spec = "UpdateSpec.hs"
    static let representation = ["Prefer": "return=representation"]
    static let minimal = ["Prefer": "return=minimal"]
    static let noBody: [String: String?] = ["Content-Type": nil]

    static let cases: [FidelityCase] = [
        .send(
            spec, "to unknown uri indicates no table found by returning 404", .patch, "fake",
            payload: #"{ "real": false }"#, status: 404,
            json:
                #"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'public.fake' in the schema cache"}"#
        ),
        .send(
            spec, "on an empty table succeeds with status code 204", .patch, "empty_table",
            payload: #"{ "extra":20 }"#,
            status: 204, body: .empty, expect: noBody),
        .send(
            spec, "with invalid json payload fails with 400 and error", .patch, "simple_pk",
            payload: "}{ x = 2",
            status: 400, json: InsertSpecCases.invalidJSON),
        .send(
            spec, "with no payload fails with 400 and error", .patch, "items", payload: "", status: 400,
            json: InsertSpecCases.invalidJSON),
        .send(
            spec, "insignificant whitespace: ignores it and successfuly updates with json payload", .patch,
            "items?id=eq.1", headers: representation, payload: "\t \n \r { \"id\": 99 } \t \n \r ",
            status: 200,
            json: #"[{"id":99}]"#),
        .send(
            spec, "can update a single item", .patch, "items?id=eq.2", payload: #"{ "id":42 }"#, status: 204,
            body: .empty, expect: ["Content-Type": nil, "Content-Range": "0-0/*"]
        ).then("items?id=eq.42", json: #"[{"id":42}]"#),
        .send(
            spec, "returns empty array when no rows updated and return=rep", .patch, "items?id=eq.999999",
            headers: representation, payload: #"{ "id":999999 }"#, status: 200, json: "[]"),
        .send(
            spec, "returns status code 200 when no rows updated", .patch, "items?id=eq.99999999",
            payload: #"{ "id": 42 }"#, status: 204),
        .send(
            spec, "returns updated object as array when return=rep", .patch, "items?id=eq.2",
            headers: representation,
            payload: #"{ "id":2 }"#, status: 200, json: #"[{"id":2}]"#, expect: ["Content-Range": "0-0/*"]),
        .send(
            spec, "can update multiple items", .patch, "no_pk?b=eq.0", payload: #"{ "b": "1" }"#, status: 204,
            body: .empty, expect: ["Content-Type": nil, "Content-Range": "0-1/*"]
        ).then("no_pk?select=a&b=eq.1", json: #"[{"a":"1"},{"a":"2"}]"#),
        .send(
            spec, "can set a column to NULL", .patch, "no_pk?a=eq.1", headers: representation,
            payload: #"{ "b": null }"#, status: 200, json: #"[{ "a": "1", "b": null }]"#),
        .send(
            spec, "filtering by a computed column is successful", .patch, "items?is_first=eq.true",
            headers: representation, payload: #"{ "id": 100 }"#, status: 200, json: #"[{ "id": 100 }]"#,
            expect: ["Content-Range": "0-0/*"]),
        .send(
            spec, "can return computed columns", .patch, "items?id=eq.1&select=id,always_true",
            headers: representation, payload: #"{ "id": 1 }"#, status: 200,
            json: #"[{ "id": 1, "always_true": true }]"#
        ),
        .send(
            spec, "ignores ?select= when return not set or return=minimal", .patch, "items?id=eq.1&select=id",
            headers: minimal, payload: #"{ "id":1 }"#, status: 204, body: .empty,
            expect: ["Content-Type": nil, "Content-Range": "0-0/*"]),
        .send(
            spec, "makes no updates and returns 204 without return= and without ?select=", .patch, "items",
            payload: "{}", status: 204, body: .empty, expect: ["Content-Type": nil, "Content-Range": "*/*"]),
        .send(
            spec, "makes no updates and returns 204 without return= and without ?select= ([])", .patch,
            "items",
            payload: "[]", status: 204, body: .empty, expect: ["Content-Type": nil, "Content-Range": "*/*"]),
        .send(
            spec, "makes no updates and returns 200 with return=rep and with ?select=", .patch,
            "items?select=id",
            headers: representation, payload: "{}", status: 200, json: "[]", expect: ["Content-Range": "*/*"]),
        .send(
            spec, "with unicode values succeeds and returns values intact", .patch, "no_pk?a=eq.1",
            headers: representation, payload: #"{ "a":"圍棋", "b":"￥" }"#, status: 200,
            json: #"[{ "a":"圍棋", "b":"￥" }]"#),
        .send(
            spec, "PATCH with ?columns parameter ignores json keys not included in ?columns", .patch,
            "articles?id=eq.1&columns=body", headers: representation,
            payload: #"{"body": "Some real content", "smth": "here", "other": "stuff", "fake_id": 13}"#,
            status: 200,
            json: #"[{"id": 1, "body": "Some real content", "owner": "diogo"}]"#),
        .send(
            spec, "PATCH with ?columns parameter ignores json keys and gives 200 if no record updated",
            .patch,
            "articles?id=eq.2001&columns=body", headers: representation,
            payload: #"{"body": "Some real content", "smth": "here", "other": "stuff", "fake_id": 13}"#,
            status: 200),
        .send(
            spec, "PATCH with ?columns parameter disallows ?columns which don't exist", .patch,
            "articles?id=eq.1&columns=helicopter", headers: representation, payload: #"{"body": "yyy"}"#,
            status: 400,
            json:
                #"{"code":"PGRST204","details":null,"hint":null,"message":"Could not find the 'helicopter' column of 'articles' in the schema cache"}"#
        ),
        .send(
            spec, "updates table using default values(field-with_sep) when json keys are undefined", .patch,
            "complex_items?id=eq.3&columns=name,field-with_sep",
            headers: ["Prefer": "return=representation, missing=default"], payload: #"{"name": "Tres"}"#,
            status: 200,
            json:
                #"[{"id":3,"name":"Tres","settings":{"foo":{"int":1,"bar":"baz"}},"arr_data":[1,2,3],"field-with_sep":1}]"#
        ),
        .send(
            spec,
            "table with limited privileges: succeeds updating row and gives a 204 when using return=minimal",
            .patch, "app_users?id=eq.1", headers: minimal, payload: #"{ "password": "passxyz" }"#,
            status: 204,
            body: .empty, expect: ["Content-Type": nil]),
        .send(
            spec, "table with limited privileges: can update without return=minimal and no explicit select",
            .patch, "app_users?id=eq.1", payload: #"{ "password": "passabc" }"#, status: 204, body: .empty),
    ]
}
