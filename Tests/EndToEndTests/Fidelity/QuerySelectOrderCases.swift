/// Select and order from PostgREST's `QuerySpec.hs` ("Shaping response with select parameter",
/// "ordering response", "Accept headers").
enum QuerySelectOrderCases {
    static let spec = "QuerySpec.hs"
    static let complex3 =
        #"{"id":3,"name":"Three","settings":{"foo":{"int":1,"bar":"baz"}},"arr_data":[1,2,3],"field-with_sep":3}"#
    static let noPk = (
        null: #"{"a":null,"b":null}"#, one: #"{"a":"1","b":"0"}"#, two: #"{"a":"2","b":"0"}"#
    )

    static let cases = listed + nullOrderings

    /// "ordering response" by `no_pk.a` with its nulls placed: the `it` text, the order asked for
    /// and the rows in the order answered.
    static let nullOrderings: [FidelityCase] = [
        ("by a column with nulls first", "a.nullsfirst", [noPk.null, noPk.one, noPk.two]),
        ("by a column asc with nulls last", "a.asc.nullslast", [noPk.one, noPk.two, noPk.null]),
        ("by a column desc with nulls first", "a.desc.nullsfirst", [noPk.null, noPk.two, noPk.one]),
        ("by a column desc with nulls last", "a.desc.nullslast", [noPk.two, noPk.one, noPk.null]),
    ].map { name, order, rows in
        .get(
            spec, name, "no_pk?order=" + order, json: "[" + rows.joined(separator: ",") + "]",
            expect: ["Content-Range": "0-2/*"])
    }

    static let listed: [FidelityCase] = [
        .get(
            spec, "selectStar works in absense of parameter", "complex_items?id=eq.3", json: "[\(complex3)]"),
        .get(
            spec, "dash `-` in column names is accepted", "complex_items?id=eq.3&select=id,field-with_sep",
            json: #"[{"id":3,"field-with_sep":3}]"#),
        .get(spec, "one simple column", "complex_items?select=id", json: #"[{"id":1},{"id":2},{"id":3}]"#),
        .get(spec, "rename simple column", "complex_items?id=eq.1&select=myId:id", json: #"[{"myId":1}]"#),
        .get(
            spec, "one simple column with casting (text)", "complex_items?select=id::text",
            json: #"[{"id":"1"},{"id":"2"},{"id":"3"}]"#),
        .get(
            spec, "rename simple column with casting", "complex_items?id=eq.1&select=myId:id::text",
            json: #"[{"myId":"1"}]"#),
        .get(
            spec, "json column", "complex_items?id=eq.1&select=settings",
            json: #"[{"settings":{"foo":{"int":1,"bar":"baz"}}}]"#),
        .get(
            spec, "fails on bad casting (wrong cast type)", "complex_items?select=id::fakecolumntype",
            status: 400,
            json:
                #"{"hint":null,"details":null,"code":"42704","message":"type \"fakecolumntype\" does not exist"}"#
        ),
        .get(
            spec, "empty root select gives all columns", "projects?select=",
            json: #"""
                [{"id":1,"name":"Windows 7","client_id":1},{"id":2,"name":"Windows 10","client_id":1},
                {"id":3,"name":"IOS","client_id":2},{"id":4,"name":"OSX","client_id":2},{"id":5,"name":"Orphan","client_id":null}]
                """#),
        .get(
            spec, "by a column asc", "items?id=lte.2&order=id.asc", json: #"[{"id":1},{"id":2}]"#,
            expect: ["Content-Range": "0-1/*"]),
        .get(
            spec, "by a column desc", "items?id=lte.2&order=id.desc", json: #"[{"id":2},{"id":1}]"#,
            expect: ["Content-Range": "0-1/*"]),
        .get(
            spec, "by two columns with nulls and direction specified",
            "projects?select=client_id,id,name&order=client_id.desc.nullslast,id.desc",
            json: #"""
                [{"client_id":2,"id":4,"name":"OSX"},{"client_id":2,"id":3,"name":"IOS"},
                {"client_id":1,"id":2,"name":"Windows 10"},{"client_id":1,"id":1,"name":"Windows 7"},
                {"client_id":null,"id":5,"name":"Orphan"}]
                """#, expect: ["Content-Range": "0-4/*"]),
        .get(
            spec, "by a column with no direction or nulls specified", "items?id=lte.2&order=id",
            json: #"[{"id":1},{"id":2}]"#, expect: ["Content-Range": "0-1/*"]),
        .get(spec, "without other constraints", "items?order=id.asc", status: 200),
        .get(
            spec, "gives meaningful error message on bad syntax", "items?order=id.asc.nullslasttt",
            status: 400,
            body: .errorCode("PGRST100"), expect: ["Content-Type": "application/json; charset=utf-8"]),
        .get(
            spec, "gives meaningful error message on bad syntax (an unknown modifier: id.asc.bad)",
            "items?order=id.asc.bad", status: 400, body: .errorCode("PGRST100")),
        .get(
            spec, "should respond an unknown accept type with 406", "simple_pk",
            headers: ["Accept": "text/unknowntype"], status: 406,
            json:
                #"{"message":"None of these media types are available: text/unknowntype","code":"PGRST107","details":null,"hint":null}"#
        ),
        .get(
            spec, "should respond correctly to */* in accept header", "simple_pk", headers: ["Accept": "*/*"]),
        .get(
            spec, "*/* should rescue an unknown type", "simple_pk",
            headers: ["Accept": "text/unknowntype, */*"]),
        .get(
            spec, "should respond with CSV to 'text/csv' request", "simple_pk?order=k",
            headers: ["Accept": "text/csv; version=1"], expect: ["Content-Type": "text/csv; charset=utf-8"]),
        .get(
            spec, "dash `-` in column names is accepted (in a filter)",
            "complex_items?select=id&field-with_sep=eq.3", json: #"[{"id":3}]"#),
    ]
}
