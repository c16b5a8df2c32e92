import Foundation
import OfflineEngine

/// The soak's access tokens: unsigned JWTs (the gateway reads claims without checking a
/// signature) that expire a few seconds after they are made, as a real auth server's do.
public enum ConvergeToken {
    /// A token of `user` made now (`iat`, in seconds with a fraction) that expires `lifetime`
    /// seconds later (`exp`).
    public static func make(user: String, lifetime: Double, now: Date = Date()) -> String {
        let issued = now.timeIntervalSince1970
        let claims: JSONValue = .object([
            "sub": .string(user), "role": "authenticated",
            "iat": .number(JSONNumber(issued)), "exp": .number(JSONNumber(issued + lifetime)),
        ])
        return base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "."
            + base64URL(JSONText.data(claims)) + ".unsigned"
    }

    /// The `sub` and `iat` claims of `token`, or `nil` when it is not such a token.
    public static func claims(of token: String) -> (user: String, issued: Double)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(
            of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), case .object(let claims)? = try? JSONText.parse(data),
            case .string(let user)? = claims["sub"]
        else { return nil }
        if case .number(let issued)? = claims["iat"] { return (user, Double(issued.text) ?? 0) }
        return (user, 0)
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }
}
