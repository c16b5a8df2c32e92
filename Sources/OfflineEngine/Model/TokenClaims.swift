import Foundation

/// What an access token says of itself: its user (`sub`) and its expiry (`exp`), read from the
/// JWT's payload without checking its signature.
///
/// The engine never trusts these for access (the server checks the signature); it uses them to
/// route: a token of another user than a write's owner must not carry that write, and a token
/// known to be expired is not worth sending.
struct TokenClaims: Sendable, Hashable {
    /// The `sub` claim: the user the token speaks for.
    var subject: String?
    /// The `exp` claim.
    var expiresAt: Date?

    /// The claims of a JWT (`header.payload.signature`), or `nil` when `token` is not one.
    init?(jwt token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Self.base64URLDecoded(parts[1]),
            case .object(let claims)? = try? JSONText.parse(payload)
        else { return nil }
        if case .string(let subject)? = claims["sub"] { self.subject = subject }
        if case .number(let seconds)? = claims["exp"], let value = Double(seconds.text) {
            expiresAt = Date(timeIntervalSince1970: value)
        }
    }

    private static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
