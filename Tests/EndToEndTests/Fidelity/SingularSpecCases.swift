/// `Accept: application/vnd.pgrst.object+json` from PostgREST's `SingularSpec.hs`: one object,
/// or 406 PGRST116 with the write rolled back (checked by the read that follows).
enum SingularSpecCases {
    static let spec = "SingularSpec.hs"
    static let object = "application/vnd.pgrst.object+json"
    static let objectType = "application/vnd.pgrst.object+json; charset=utf-8"
    static let singular = ["Accept": object]

    static func rep(_ prefer: String = "return=representation") -> [String: String] {
        ["Accept": object, "Prefer": prefer]
    }

    static func notOne(_ rows: Int) -> String {
        #"{"details":"The result contains \#(rows) rows","message":"Cannot coerce the result to a single JSON object","code":"PGRST116","hint":null}"#
    }

    static let cases: [FidelityCase] = [
        .get(
            spec, "with GET request fails for zero rows", "items?id=gt.0&id=lt.0", headers: singular,
            status: 406),
        .get(
            spec, "will select an existing object", "items?id=eq.5", headers: singular, json: #"{"id":5}"#,
            expect: ["Content-Type": objectType]),
        .get(
            spec, "will select an existing object (without the +json suffix)", "items?id=eq.5",
            headers: ["Accept": "application/vnd.pgrst.object"], json: #"{"id":5}"#,
            expect: ["Content-Type": objectType]),
        .get(
            spec, "can combine multiple prefer values", "items?id=eq.5",
            headers: ["Accept": object, "Prefer": "count=none"], json: #"{"id":5}"#,
            expect: ["Content-Type": objectType]),
        .get(
            spec, "with GET request fails for several rows (Error.hs SingularityError)", "items?id=lt.3",
            headers: singular, status: 406, json: notOne(2)),
        .send(
            spec, "when updating rows works for one row with return=rep", .patch, "addresses?id=eq.1",
            headers: rep(),
            payload: #"{ "address": "B Street" }"#, status: 200, json: #"{"id":1,"address":"B Street"}"#,
            expect: ["Content-Type": objectType]),
        .send(
            spec, "when updating rows works for one row with return=minimal", .patch, "addresses?id=eq.1",
            headers: rep("return=minimal"), payload: #"{ "address": "C Street" }"#, status: 204, body: .empty,
            expect: ["Content-Type": nil]),
        .send(
            spec, "when updating rows raises an error for multiple rows", .patch, "addresses",
            headers: singular,
            payload: #"{ "address": "zzz" }"#, status: 406, json: notOne(4),
            expect: ["Content-Type": "application/json; charset=utf-8"]
        ).then("addresses?id=eq.1", json: #"[{"id":1,"address":"address 1"}]"#),
        .send(
            spec, "when updating rows raises an error for multiple rows with return=rep", .patch, "addresses",
            headers: rep(), payload: #"{ "address": "zzz" }"#, status: 406, json: notOne(4)
        ).then("addresses?id=eq.1", json: #"[{"id":1,"address":"address 1"}]"#),
        .send(
            spec, "when updating rows raises an error for zero rows", .patch, "items?id=gt.0&id=lt.0",
            headers: singular, payload: #"{"id":1}"#, status: 406, json: notOne(0)),
        .send(
            spec, "when updating rows raises an error for zero rows with return=rep", .patch,
            "items?id=gt.0&id=lt.0",
            headers: rep(), payload: #"{"id":1}"#, status: 406, json: notOne(0)),
        .send(
            spec, "when creating rows works for one row with return=rep", .post, "addresses", headers: rep(),
            payload: #"[ { "id": 102, "address": "xxx" } ]"#, status: 201,
            json: #"{"id":102,"address":"xxx"}"#,
            expect: ["Content-Type": objectType]),
        .send(
            spec, "when creating rows works for one row with return=minimal", .post, "addresses",
            headers: rep("return=minimal"), payload: #"[ { "id": 103, "address": "xxx" } ]"#, status: 201,
            body: .empty, expect: ["Content-Type": nil, "Content-Range": "*/*"]),
        .send(
            spec, "raises an error when attempting to create multiple entities", .post, "addresses",
            headers: singular,
            payload: #"[ { "id": 200, "address": "xxx" }, { "id": 201, "address": "yyy" } ]"#, status: 406,
            json: notOne(2)
        ).then("addresses?id=eq.200", json: "[]"),
        .send(
            spec, "raises an error regardless of return=minimal", .post, "addresses",
            headers: rep("return=minimal"),
            payload: #"[ { "id": 204, "address": "xxx" }, { "id": 205, "address": "yyy" } ]"#, status: 406,
            json: notOne(2)
        ).then("addresses?id=eq.204", json: "[]"),
        .send(
            spec, "raises an error when creating zero entities", .post, "addresses", headers: singular,
            payload: "[ ]",
            status: 406, json: notOne(0)),
        .send(
            spec, "when deleting rows works for one row with return=rep", .delete, "items?id=eq.11",
            headers: rep(),
            status: 200, json: #"{"id":11}"#),
        .send(
            spec, "when deleting rows works for one row with return=minimal", .delete, "items?id=eq.12",
            headers: rep("return=minimal"), status: 204, body: .empty),
        .send(
            spec, "raises an error when attempting to delete multiple entities", .delete,
            "items?id=gt.0&id=lt.6",
            headers: singular, status: 406, json: notOne(5)
        ).then(
            "items?id=gt.0&id=lt.6&order=id", json: #"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5}]"#,
            expect: ["Content-Range": "0-4/*"]),
        .send(
            spec, "raises an error when deleting zero entities with return=rep", .delete, "items?id=lt.0",
            headers: rep(), status: 406, json: notOne(0)),
    ]
}
