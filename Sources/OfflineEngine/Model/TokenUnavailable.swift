/// No usable token for the signed-in user's request: it does not go out. Counted as the server
/// refusing the session (``ResponseDecoding/isAuthenticationFailure(_:)``): a write waits in the
/// queue for a new token, a read shows the device's rows.
package struct TokenUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Reason: Sendable, Hashable {
        /// The token's expiry has passed (the session's `expiresAt`, or the token's `exp`).
        case expired
        /// The token provider returned `nil` or threw.
        case noneGiven
        /// The server refused the token and the provider had no other.
        case refused
        /// The provider's token is another user's: they were signed in, and the request, made
        /// for the user before, did not go.
        case otherUser
    }

    package let reason: Reason

    package init(_ reason: Reason) {
        self.reason = reason
    }

    package var description: String {
        switch reason {
        case .expired: return "The session has expired; the changes wait until the user signs in again."
        case .noneGiven: return "No access token is available now; the changes wait for one."
        case .refused:
            return "The server refused the session; the changes wait until the user signs in again."
        case .otherUser: return "Another user signed in; the previous user's changes wait for them."
        }
    }
}
