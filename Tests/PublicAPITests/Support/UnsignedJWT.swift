import Foundation

/// An unsigned JWT for `user` (its `sub`), expiring in an hour: what the client reads of a token
/// is its claims, never its signature.
func unsignedJWT(user: String, tag: String = "a") -> String {
    func part(_ json: String) -> String {
        Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    let expiry = Int(Date().addingTimeInterval(3_600).timeIntervalSince1970)
    return part(#"{"alg":"HS256"}"#) + "." + part(#"{"sub":"\#(user)","exp":\#(expiry),"tag":"\#(tag)"}"#)
        + ".signature"
}
