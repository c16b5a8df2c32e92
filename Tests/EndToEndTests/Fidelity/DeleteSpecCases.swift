/// Deletes from PostgREST's `DeleteSpec.hs`, each in a fresh copy of the fixture.
enum DeleteSpecCases {
    static let spec = "DeleteSpec.hs"
    static let representation = ["Prefer": "return=representation"]

    static let cases: [FidelityCase] = [
        .send(
            spec, "succeeds with 204 and deletion count", .delete, "items?id=eq.1", status: 204, body: .empty,
            expect: ["Content-Type": nil, "Content-Range": "*/*"]
        ).then("items?id=eq.1", json: "[]"),
        .send(
            spec, "returns the deleted item and count if requested", .delete, "items?id=eq.2",
            headers: ["Prefer": "return=representation, count=exact"], status: 200, json: #"[{"id":2}]"#,
            expect: ["Content-Range": "*/1"]),
        .send(
            spec, "ignores ?select= when return not set or return=minimal", .delete,
            "items?id=eq.3&select=id",
            status: 204, body: .empty, expect: ["Content-Type": nil, "Content-Range": "*/*"]),
        .send(
            spec, "ignores ?select= when return not set or return=minimal (return=minimal)", .delete,
            "items?id=eq.3&select=id", headers: ["Prefer": "return=minimal"], status: 204, body: .empty,
            expect: ["Content-Type": nil, "Content-Range": "*/*"]),
        .send(
            spec, "returns the deleted item and shapes the response", .delete,
            "complex_items?id=eq.2&select=id,name",
            headers: representation, status: 200, json: #"[{"id":2,"name":"Two"}]"#,
            expect: ["Content-Range": "*/*"]),
        .send(
            spec, "can rename and cast the selected columns", .delete,
            "complex_items?id=eq.3&select=ciId:id::text,ciName:name", headers: representation, status: 200,
            json: #"[{"ciId":"3","ciName":"Three"}]"#),
        .send(
            spec, "known route, no records matched includes [] body if return=rep", .delete,
            "items?id=eq.101",
            headers: representation, status: 200, json: "[]", expect: ["Content-Range": "*/*"]),
        .send(
            spec, "totally unknown route fails with 404", .delete, "foozle?id=eq.101", status: 404,
            json:
                #"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'public.foozle' in the schema cache"}"#
        ),
        .send(
            spec, "fails deleting the row when return=representation and selecting all the columns", .delete,
            "app_users?id=eq.1", headers: representation, status: 401),
        .send(
            spec,
            "succeeds deleting the row when return=representation and selecting only the privileged columns",
            .delete, "app_users?id=eq.1&select=id,email", headers: representation, status: 200,
            json: #"[{ "id": 1, "email": "test@123.com" }]"#, expect: ["Content-Range": "*/*"]),
        .send(
            spec, "suceeds deleting the row with no explicit select when using return=minimal", .delete,
            "app_users?id=eq.2", headers: ["Prefer": "return=minimal"], status: 204, body: .empty,
            expect: ["Content-Type": nil]),
        .send(
            spec, "suceeds deleting the row with no explicit select by default", .delete, "app_users?id=eq.3",
            status: 204, body: .empty, expect: ["Content-Type": nil]),
    ]
}
