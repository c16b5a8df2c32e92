import Foundation

/// Unsigned bearer tokens with any claims, for the cases about tokens (the gateway reads claims
/// without checking signatures, so only their content matters).
enum FidelityToken {
    /// `Bearer <header>.<claims>.unsigned` for `claimsJSON`.
    static func bearer(_ claimsJSON: String) -> String {
        "Bearer " + base64URL(#"{"alg":"HS256","typ":"JWT"}"#) + "." + base64URL(claimsJSON) + ".unsigned"
    }

    private static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
