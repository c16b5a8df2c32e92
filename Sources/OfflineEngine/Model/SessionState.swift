/// Where the user's session stands, as the client sees it.
public enum SessionState: Sendable, Hashable {
    /// The stored session is being read back at launch; refreshes wait for it.
    case restoring
    /// Nobody is signed in; requests carry the API key only.
    case signedOut
    /// A user is signed in; requests carry their access token.
    case signedIn(AuthSession)
    /// A user is signed in, but no token of theirs is usable now: the server refused it (an
    /// expired or revoked JWT), it has expired, or ``Configuration/accessToken`` had none to
    /// give. Their writes wait in the queue, and reads show the device's rows, until a token
    /// comes: from ``OfflineClient/signIn(_:)``, or from the token provider, which is asked again
    /// on the retry schedule and whenever the network comes back.
    ///
    /// ```swift
    /// for try await state in client.session {
    ///     if case .waitingForToken = state { showSignInAgainBanner() }
    /// }
    /// ```
    case waitingForToken(AuthSession)

    /// The signed-in user's id, if any.
    public var userID: String? {
        authSession?.userID
    }

    /// The signed-in session, if any (also while it waits for a token).
    public var authSession: AuthSession? {
        switch self {
        case .signedIn(let session), .waitingForToken(let session): return session
        case .restoring, .signedOut: return nil
        }
    }

    /// Whether the signed-in user's requests wait for a usable token.
    public var isWaitingForToken: Bool {
        if case .waitingForToken = self { return true }
        return false
    }
}
