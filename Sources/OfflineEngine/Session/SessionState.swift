/// Where the user's session stands, as the client sees it.
public enum SessionState: Sendable, Hashable {
    /// The stored session is being read back at launch; refreshes wait for it.
    case restoring
    /// Nobody is signed in; requests carry the API key only.
    case signedOut
    /// A user is signed in; requests carry their access token.
    case signedIn(AuthSession)

    /// The signed-in user's id, if any.
    public var userID: String? {
        if case .signedIn(let session) = self { return session.userID }
        return nil
    }

    /// The signed-in session, if any.
    public var authSession: AuthSession? {
        if case .signedIn(let session) = self { return session }
        return nil
    }
}
