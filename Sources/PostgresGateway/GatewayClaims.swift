import Foundation
import OfflineEngine

/// Who a request runs as: the JWT's claims from `Authorization`, set for the statement as
/// `request.jwt.claims` (so `auth.uid()` reads `sub`) with the role they name.
///
/// The gateway reads a token's claims without checking its signature: it stands in for
/// PostgREST in tests, where tokens are made by the test. No token, or the API key itself
/// (what a client sends when nobody is signed in), runs as `anon`.
struct GatewayClaims: Equatable {
    /// The claims as JSON text.
    let json: String
    /// The role the statement runs as (`anon`, `authenticated`).
    let role: String

    /// Whether the request runs as the anonymous role.
    var isAnonymous: Bool { role == "anon" }

    /// The claims of `headers`' bearer token.
    init(headers: HTTPHeaders) throws(GatewayRefusal) {
        let authorization = headers["Authorization"] ?? ""
        let token = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : ""
        guard !token.isEmpty, token != headers["apikey"] else {
            self.init(json: #"{"role":"anon"}"#, role: "anon")
            return
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw GatewayRefusal(
                status: 401, code: "PGRST301", message: "Expected 3 parts in JWT; got \(parts.count)")
        }
        guard let payload = Self.base64URLDecoded(parts[1]),
            case .object(let claims)? = try? JSONText.parse(payload)
        else {
            throw GatewayRefusal(status: 401, code: "PGRST301", message: "JWT could not be decoded")
        }
        if let expiry = claims["exp"]?.numberValue?.doubleValue, expiry < Date().timeIntervalSince1970 {
            throw GatewayRefusal(status: 401, code: "PGRST303", message: "JWT expired")
        }
        let role = claims["role"]?.stringValue ?? "authenticated"
        self.init(json: JSONText.string(.object(claims)), role: role)
    }

    private init(json: String, role: String) {
        self.json = json
        self.role = role
    }

    /// A token with `claims`, unsigned (the gateway does not check signatures), for tests.
    static func token(claims: [String: JSONValue]) -> String {
        let header = base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        return header + "." + base64URL(JSONText.data(.object(claims))) + ".unsigned"
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    private static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
