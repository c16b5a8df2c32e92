import Foundation

/// Errors and tokens from PostgREST's `ErrorSpec.hs` (the JWT cases that do not depend on a
/// signature: the gateway does not check signatures).
enum ErrorSpecCases {
    static let spec = "ErrorSpec.hs"
    static let past = Int(Date().timeIntervalSince1970) - 3600

    static let cases: [FidelityCase] = [
        .get(
            spec, "works with ApiRequest error", "invalid/nested/paths", status: 404,
            json:
                #"{"code":"PGRST125","details":null,"hint":null,"message":"Invalid path specified in request URL"}"#
        ),
        .get(
            spec, "works with SchemaCache error", "non_existent_table", status: 404,
            json:
                #"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'public.non_existent_table' in the schema cache"}"#
        ),
        .get(
            spec, "works with Jwt error", "items",
            headers: [
                "Authorization":
                    "Bearer ey9zdGdyZXN0X3Rlc3RfYXV0aG9yIiwiaWQiOiJqZG9lIn0.y4vZuu1dDdwAl0-S00MCRWRYMlJ5YAMSir6Es6WtWx0"
            ], status: 401,
            json:
                #"{"message":"Expected 3 parts in JWT; got 2","code":"PGRST301","hint":null,"details":null}"#),
        .get(
            spec, "when role does not exist", "items",
            headers: ["Authorization": FidelityToken.bearer(#"{ "role": "not existing" }"#)], status: 401,
            json:
                #"{"code":"22023","details":null,"hint":null,"message":"role \"not existing\" does not exist"}"#
        ),
        .get(
            spec, "it should return error if expired", "items",
            headers: ["Authorization": FidelityToken.bearer(#"{ "exp": \#(past) }"#)], status: 401,
            json: #"{"code":"PGRST303","details":null,"hint":null,"message":"JWT expired"}"#),
        .get(
            spec, "when partial token is provided", "items",
            headers: ["Authorization": "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.bm90IGFuIG9iamVjdA"],
            status: 401,
            json:
                #"{"code":"PGRST301","details":null,"hint":null,"message":"Expected 3 parts in JWT; got 2"}"#),
        .get(
            spec, "a token naming an existing role runs as that role (Auth: role claim)", "items?id=eq.1",
            headers: ["Authorization": FidelityToken.bearer(#"{ "role": "anon" }"#)], json: #"[{"id":1}]"#),
        .get(
            spec, "a role without grants is refused with 401 when anonymous (Error.hs: 42501)",
            "app_users?select=password",
            status: 401,
            json:
                #"{"code":"42501","details":null,"hint":null,"message":"permission denied for table app_users"}"#
        ),
    ]
}
