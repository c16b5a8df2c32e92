/// Inserts from PostgREST's `InsertSpec.hs`. Each runs in a fresh copy of the fixture, as the
/// spec's requests run in transactions that are rolled back.
enum InsertSpecCases {
    static let spec = "InsertSpec.hs"
    static let jsonType = "application/json; charset=utf-8"
    static let representation = ["Prefer": "return=representation"]
    static let menagerie =
        #"{"integer":13,"double":3.14159,"varchar":"testing!","boolean":false,"date":"1900-01-01","money":"$3.99","enum":"foo"}"#
    static let notObjects =
        #"{"message":"All object keys must match","code":"PGRST102","hint":null,"details":null}"#
    static let invalidJSON =
        #"{"message":"Empty or invalid json","code":"PGRST102","details":null,"hint":null}"#

    static let cases: [FidelityCase] = [
        .send(
            spec, "accepts disparate json types", .post, "menagerie", payload: menagerie, status: 201,
            body: .empty,
            expect: ["Content-Type": nil]),
        .send(
            spec, "filters columns in result using &select", .post, "menagerie?select=integer,varchar",
            headers: representation, payload: "[\(menagerie)]", status: 201,
            json: #"[{"integer":13,"varchar":"testing!"}]"#,
            expect: ["Content-Type": jsonType]),
        .send(
            spec, "ignores &select when return not set or using return=minimal", .post,
            "menagerie?select=integer,varchar", headers: ["Prefer": "return=minimal"],
            payload: "[\(menagerie)]",
            status: 201, body: .empty, expect: ["Content-Type": nil]),
        .send(
            spec, "rejects json array that isn't exclusivily composed of objects", .post, "articles",
            payload: #"[{"id": 100, "body": "xxxxx"}, 123, "xxxx", {"id": 111, "body": "xxxx"}]"#,
            status: 400,
            json: notObjects, expect: ["Content-Type": jsonType]),
        .send(
            spec, "rejects json array that has objects with different keys", .post, "articles",
            payload: #"[{"id": 100, "body": "xxxxx"}, {"id": 111, "body": "xxxx", "owner": "me"}]"#,
            status: 400,
            json: notObjects),
        .send(
            spec, "can rename and cast the selected columns", .post,
            "projects?select=pId:id::text,pName:name,cId:client_id::text", headers: representation,
            payload: #"{"id":7,"name":"New Project","client_id":2}"#, status: 201,
            json: #"[{"pId":"7","pName":"New Project","cId":"2"}]"#,
            expect: ["Location": nil, "Content-Range": "*/*"]),
        .send(
            spec,
            "should not throw and return location header when selecting without PK (return=representation)",
            .post, "projects?select=name,client_id", headers: representation,
            payload: #"{"id":10,"name":"New Project","client_id":2}"#, status: 201,
            json: #"[{"name":"New Project","client_id":2}]"#,
            expect: ["Location": nil, "Content-Range": "*/*"]),
        .send(
            spec, "requesting headers only representation: return location header when selecting without PK",
            .post, "projects?select=name,client_id", headers: ["Prefer": "return=headers-only"],
            payload: #"{"id":11,"name":"New Project","client_id":2}"#, status: 201, body: .empty,
            expect: ["Content-Type": nil, "Location": "/projects?id=eq.11", "Content-Range": "*/*"]),
        .send(
            spec, "requesting no representation: no location header when selecting without PK", .post,
            "projects?select=name,client_id", payload: #"{"id":12,"name":"New Project","client_id":2}"#,
            status: 201,
            body: .empty, expect: ["Content-Type": nil, "Location": nil]),
        .send(
            spec, "into a table with auto-incrementing pk succeeds with 201 and location header", .post,
            "auto_incrementing_pk", headers: ["Prefer": "return=headers-only"],
            payload: #"{ "non_nullable_string":"not null"}"#, status: 201, body: .empty,
            expect: ["Content-Type": nil, "Location": "/auto_incrementing_pk?id=eq.2"]),
        .send(
            spec, "into a table with simple pk fails with 400 and error", .post, "simple_pk",
            payload: #"{ "extra":"foo"}"#, status: 400,
            json: #"""
                {"hint":null,"details":"Failing row contains (null, foo).","code":"23502",
                "message":"null value in column \"k\" of relation \"simple_pk\" violates not-null constraint"}
                """#),
        .send(
            spec, "into a table with no pk succeeds with 201 but no location header", .post, "no_pk",
            payload: #"{ "a":"foo", "b":"bar" }"#, status: 201, body: .empty,
            expect: ["Content-Type": nil, "Location": nil]),
        .send(
            spec, "returns full details of inserted record if asked", .post, "no_pk", headers: representation,
            payload: #"{ "a":"bar", "b":"baz" }"#, status: 201, json: #"[{ "a":"bar", "b":"baz" }]"#,
            expect: ["Location": nil]),
        .send(
            spec, "returns empty array when no items inserted, and return=rep", .post, "no_pk",
            headers: representation,
            payload: "[]", status: 201, json: "[]"),
        .send(
            spec, "can post nulls", .post, "no_pk", headers: representation,
            payload: #"{ "a":null, "b":"foo" }"#,
            status: 201, json: #"[{ "a":null, "b":"foo" }]"#),
        .send(
            spec, "with compound pk supplied builds response location header appropriately", .post,
            "compound_pk",
            headers: representation, payload: #"{ "k1":12, "k2":"Rock & R+ll" }"#, status: 201,
            json: #"[{ "k1":12, "k2":"Rock & R+ll", "extra": null }]"#, expect: ["Location": nil]),
        .send(
            spec, "with bulk insert returns 201 but no location header", .post, "compound_pk",
            payload: #"[{"k1":21, "k2":"hello world"}, {"k1":22, "k2":"bye for now"}]"#, status: 201,
            body: .empty,
            expect: ["Content-Type": nil, "Location": nil]),
        .send(
            spec, "with invalid json payload fails with 400 and error", .post, "simple_pk",
            payload: "}{ x = 2",
            status: 400, json: invalidJSON, expect: ["Content-Type": jsonType]),
        .send(
            spec, "with no payload fails with 400 and error", .post, "simple_pk", payload: "", status: 400,
            json: invalidJSON),
        .send(
            spec, "with valid json payload succeeds and returns 201 created", .post, "simple_pk",
            payload: #"{ "k":"k1", "extra":"e1" }"#, status: 201, body: .empty, expect: ["Content-Type": nil]),
        .send(
            spec, "attempting to insert a row with the same primary key fails returning a 409 Conflict",
            .post,
            "simple_pk", payload: #"{ "k":"xyyx", "extra":"e1" }"#, status: 409,
            json: #"""
                {"hint":null,"details":"Key (k)=(xyyx) already exists.","code":"23505",
                "message":"duplicate key value violates unique constraint \"simple_pk_pkey\""}
                """#),
        .send(
            spec,
            "attempting to insert a row with conflicting unique constraint fails returning a 409 Conflict",
            .post, "withUnique", payload: #"{ "uni":"nodup", "extra":"e2" }"#, status: 409
        )
        .then("withUnique", json: #"[{"uni":"nodup","extra":"blah"}]"#),
        .send(
            spec, "jsonb serializes nested object", .post, "json_table", headers: representation,
            payload: #"{ "data": { "foo":"bar" } }"#, status: 201, json: #"[{"data":{"foo":"bar"}}]"#),
        .send(
            spec, "empty objects: successfully inserts a row with all-default columns", .post, "items",
            payload: "{}",
            status: 201, body: .empty, expect: ["Content-Type": nil]
        ).then("items?id=gt.15", json: #"[{"id":16}]"#),
        .send(
            spec, "empty objects: successfully inserts a row with all-default columns ([{}])", .post, "items",
            payload: "[{}]", status: 201, body: .empty),
        .send(
            spec, "successfully inserts two rows with all-default columns", .post, "items",
            payload: "[{}, {}]",
            status: 201, body: .empty, expect: ["Content-Type": nil]
        ).then("items?id=gt.15", json: #"[{"id":16},{"id":17}]"#),
        .send(
            spec, "successfully inserts a row with all-default columns with prefer=rep and &select=", .post,
            "items?select=id", headers: representation, payload: "{}", status: 201, json: #"[{"id":16}]"#),
        .send(
            spec, "insignificant whitespace: ignores it and successfuly inserts with json payload", .post,
            "json_table", headers: representation,
            payload: "\t \n \r { \"data\": { \"foo\":\"bar\" } }\t \n \r ",
            status: 201, json: #"[{"data":{"foo":"bar"}}]"#),
        .send(
            spec, "POST with ?columns parameter ignores json keys not included in ?columns", .post,
            "articles?columns=id,body", headers: representation,
            payload: #"{"id": 200, "body": "xxx", "smth": "here", "other": "stuff", "fake_id": 13}"#,
            status: 201,
            json: #"[{"id": 200, "body": "xxx", "owner": "anon"}]"#),
        .send(
            spec, "POST with ?columns parameter ignores json keys not included in ?columns (bulk, select)",
            .post,
            "articles?columns=id,body&select=id,body", headers: representation,
            payload: #"""
                [{"id": 201, "body": "yyy", "smth": "here", "other": "stuff", "fake_id": 13},
                {"id": 202, "body": "zzz", "garbage": "%%$&", "kkk": "jjj"}, {"id": 203, "body": "aaa", "hey": "ho"}]
                """#, status: 201,
            json: #"[{"id": 201, "body": "yyy"},{"id": 202, "body": "zzz"},{"id": 203, "body": "aaa"}]"#),
        .send(
            spec, "disallows ?columns which don't exist", .post, "articles?columns=helicopter",
            payload: #"[{"id": 204, "body": "yyy"}, {"id": 205, "body": "zzz"}]"#, status: 400,
            json:
                #"{"code":"PGRST204","details":null,"hint":null,"message":"Could not find the 'helicopter' column of 'articles' in the schema cache"}"#
        ),
        .send(
            spec, "disallows array elements that are not json objects", .post, "articles?columns=id,body",
            payload: #"[{"id": 204, "body": "yyy"}, 333, "asdf", {"id": 205, "body": "zzz"}]"#, status: 400),
        .send(
            spec, "inserts table default values(field-with_sep) when json keys are undefined", .post,
            "complex_items?columns=id,name,field-with_sep,arr_data",
            headers: ["Prefer": "return=representation, missing=default"],
            payload: #"""
                [{"id": 4, "name": "Vier"}, {"id": 5, "name": "Funf", "arr_data": null},
                {"id": 6, "name": "Sechs", "field-with_sep": 6, "arr_data": "{1,2,3}"}]
                """#, status: 201,
            json: #"""
                [{"id": 4, "name": "Vier", "field-with_sep": 1, "settings":null,"arr_data":null},
                {"id": 5, "name": "Funf", "field-with_sep": 1, "settings":null,"arr_data":null},
                {"id": 6, "name": "Sechs", "field-with_sep": 6, "settings":null,"arr_data":[1,2,3]}]
                """#),
        .send(
            spec, "can insert in a table with no select and return=minimal", .post, "insertonly",
            headers: ["Prefer": "return=minimal"], payload: #"{ "v":"some value" }"#, status: 201,
            body: .empty,
            expect: ["Content-Type": nil]),
        .send(
            spec,
            "can insert in a table with no select and return=minimal (row-level security with no read policy)",
            .post, "rls_insertonly", headers: ["Prefer": "return=minimal"],
            payload: #"{"id":1,"v":"some value"}"#,
            status: 201, body: .empty, expect: ["Content-Type": nil]),
        .send(
            spec, "table with limited privileges: succeeds inserting if correct select is applied", .post,
            "app_users?select=id,email", headers: representation,
            payload: #"{"id": 4, "email": "new@123.com", "password": "pw"}"#, status: 201,
            json: #"[{"id":4,"email":"new@123.com"}]"#),
        .send(
            spec, "table with limited privileges: fails inserting if select is not specified", .post,
            "app_users",
            headers: representation, payload: #"{"id": 5, "email": "x@123.com", "password": "pw"}"#,
            status: 401,
            json:
                #"{"hint":null,"details":null,"code":"42501","message":"permission denied for table app_users"}"#
        ),
    ]
}
