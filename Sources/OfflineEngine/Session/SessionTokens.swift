import Foundation

/// Chooses the token each request goes out with, for the user the request was made for.
///
/// Without a token provider it is the session's own token, unless its `expiresAt` has passed
/// (then nothing is sent: the server would refuse it). With ``Configuration/accessToken`` the
/// provider is asked before each request, and what it gives is checked against the request's
/// user before anything leaves:
///
/// - a token of that user is used (asked once more when its `exp` has passed), and becomes the
///   session's token;
/// - a token of another user signs that user in (the app's auth has moved on), and the request,
///   made for the user before, does not go;
/// - `nil` or a throw: nobody's token now. A request of nobody goes with the API key; a signed-in
///   user's request does not go.
///
/// A request that does not go throws ``TokenUnavailable``, which the engine handles as the server
/// refusing the session: writes wait in the queue. The session shows
/// ``SessionState/waitingForToken(_:)`` while it is still the session whose token was refused
/// or could not be had (see ``SessionEvents/waitForToken(user:refused:in:)``).
struct SessionTokens: Sendable {
    let provider: (@Sendable () async throws -> String?)?
    let state: EngineState
    let now: @Sendable () -> Date

    /// Whether a refused token may be followed by another (a provider is there to ask).
    var canRefresh: Bool { provider != nil }

    /// The token for a request made for `session`'s user (`nil`: nobody signed in, the API key
    /// alone). `refused` is a token the server just refused: it is not offered again.
    func token(for session: AuthSession?, refused: String? = nil) async throws -> String? {
        guard let provider else {
            guard let session else { return nil }
            if refused != nil { throw TokenUnavailable(.refused) }
            if let expiry = session.expiresAt, expiry <= now() {
                await SessionEvents.waitForToken(
                    user: session.userID, refused: session.accessToken, in: state)
                throw TokenUnavailable(.expired)
            }
            return session.accessToken
        }
        for attempt in 1...2 {
            let offered: String?
            do {
                offered = try await provider()
            } catch {
                offered = nil
            }
            guard let offered else {
                guard let session else { return nil }
                await SessionEvents.waitForToken(user: session.userID, refused: nil, in: state)
                throw TokenUnavailable(.noneGiven)
            }
            let claims = TokenClaims(jwt: offered)
            if let user = claims?.subject, user != session?.userID {
                try await SessionEvents.adopt(
                    AuthSession(accessToken: offered, userID: user, expiresAt: claims?.expiresAt), in: state)
                throw TokenUnavailable(.otherUser)
            }
            if offered == refused { throw TokenUnavailable(.refused) }
            // The token's own expiry, else the session's when the token is the session's.
            let expiry = claims?.expiresAt ?? (offered == session?.accessToken ? session?.expiresAt : nil)
            if let expiry, expiry <= now() {
                if attempt == 1 { continue }
                if let session {
                    await SessionEvents.waitForToken(user: session.userID, refused: nil, in: state)
                }
                throw TokenUnavailable(.expired)
            }
            if let session {
                await SessionEvents.acceptToken(
                    offered, expiresAt: claims?.expiresAt, for: session.userID, in: state)
            }
            return offered
        }
        throw TokenUnavailable(.expired)
    }
}

extension SessionTokens {
    /// Sends the request `build` makes with `session`'s token; when the server refuses it (401)
    /// and the provider gives another, once more with that one. `mayLeave` is asked right before
    /// each send; it is synchronous, so nothing (a clear, a sign-in) can run between its answer
    /// and the request leaving. `nil` when it said no. A token that cannot be had throws
    /// ``TokenUnavailable`` before anything is sent.
    func send(
        for session: AuthSession?, through transport: RetryingTransport,
        mayLeave: () -> Bool = { true }, request build: (String?) throws -> HTTPRequest
    ) async throws -> HTTPResponse? {
        let token = try await self.token(for: session)
        let request = try build(token)
        guard mayLeave() else { return nil }
        let response = try await transport.send(request)
        guard response.status == 401, let session else { return response }
        guard canRefresh, let fresh = try? await self.token(for: session, refused: token) else {
            await SessionEvents.waitForToken(user: session.userID, refused: token, in: state)
            return response
        }
        let retry = try build(fresh)
        guard mayLeave() else { return nil }
        let second = try await transport.send(retry)
        if second.status == 401 {
            await SessionEvents.waitForToken(user: session.userID, refused: fresh, in: state)
        }
        return second
    }
}
