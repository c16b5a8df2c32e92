import Foundation
import Synchronization

// supabase-swift's Auth as the catalog's "Signing in with supabase-swift" snippets use it: the
// same names and shapes (`supabase.auth.session`, `authStateChanges`, `Session`), so the snippets
// compile here as written for the real one.

/// supabase-swift's client, reduced to its `auth`.
struct SupabaseStandIn: Sendable {
    let auth: AuthStandIn
}

/// supabase-swift's `AuthChangeEvent`, the cases the snippets meet.
enum AuthChangeEvent: String, Sendable {
    case initialSession, signedIn, signedOut, tokenRefreshed
}

/// supabase-swift's `User`, reduced to its id.
struct User: Sendable {
    var id: UUID
}

/// supabase-swift's `Session`, reduced to what the snippets read.
struct Session: Sendable {
    var accessToken: String
    var refreshToken: String
    var expiresAt: TimeInterval
    var user: User
}

/// supabase-swift's `AuthClient`: the session (throwing when there is none), and the stream of
/// auth state changes, which a test drives.
final class AuthStandIn: Sendable {
    private struct SessionMissing: Error {}

    let authStateChanges: AsyncStream<(event: AuthChangeEvent, session: Session?)>
    private let continuation: AsyncStream<(event: AuthChangeEvent, session: Session?)>.Continuation
    private let current: Mutex<Session?>

    init(session: Session?) {
        (authStateChanges, continuation) = AsyncStream.makeStream()
        current = Mutex(session)
        continuation.yield((.initialSession, session))
    }

    var session: Session {
        get async throws {
            guard let session = current.withLock({ $0 }) else { throw SessionMissing() }
            return session
        }
    }

    /// The auth client's user changes (a sign-in, a refresh, or `nil`: a sign-out).
    func change(_ event: AuthChangeEvent, to session: Session?) {
        current.withLock { $0 = session }
        continuation.yield((event, session))
    }

    /// Ends the stream of changes.
    func finish() {
        continuation.finish()
    }
}
