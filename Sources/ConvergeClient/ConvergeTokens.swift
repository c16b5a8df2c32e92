import ConvergeSoak
import Foundation
import Synchronization

/// The app's auth, as the client's token provider sees it: the user signed in now and a token
/// of theirs that lives a few seconds, made again once it has expired (the provider may hand
/// out a token about to expire, as an auth client does).
final class ConvergeTokens: Sendable {
    private let state: Mutex<(user: String, tokens: [String: (token: String, expires: Date)])>

    init(user: String) {
        state = Mutex((user, [:]))
    }

    /// The user the app's auth has signed in.
    var user: String {
        get { state.withLock { $0.user } }
        set { state.withLock { $0.user = newValue } }
    }

    /// The signed-in user's token, made again when it has expired.
    func token() -> String {
        state.withLock { state in
            let now = Date()
            if let held = state.tokens[state.user], held.expires > now { return held.token }
            let lifetime = Double.random(in: 2...6)
            let token = ConvergeToken.make(user: state.user, lifetime: lifetime, now: now)
            state.tokens[state.user] = (token, now.addingTimeInterval(lifetime))
            return token
        }
    }
}
