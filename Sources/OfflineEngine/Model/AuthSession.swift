import Foundation

/// A signed-in user's session, as the app hands it over from its auth client.
public struct AuthSession: Sendable, Hashable, Codable {
    /// The JWT sent as `Authorization: Bearer`.
    public var accessToken: String
    /// The refresh token, kept so the stored session can be handed back to the auth client.
    public var refreshToken: String?
    /// The user's id (the `sub` of the token); it owns the cache and the writes made.
    public var userID: String
    /// When the access token expires, if known.
    public var expiresAt: Date?

    /// A session from its parts.
    public init(accessToken: String, refreshToken: String? = nil, userID: String, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.userID = userID
        self.expiresAt = expiresAt
    }
}

extension AuthSession: CustomStringConvertible {
    /// Names the user, never the tokens.
    public var description: String { "AuthSession(user: \(userID))" }
}
