import Foundation
import Synchronization

@testable import OfflineEngine

/// A token provider a test scripts: it answers what `next` says (a token, `nil`, or a throw), and
/// counts how often it was asked.
final class TokenScript: Sendable {
    enum Answer: Sendable {
        case token(String)
        case none
        case failure
    }

    private struct Failure: Error {}

    private let state: Mutex<(answers: [Answer], then: Answer, asked: Int)>

    /// Answers `answers` in order, then `then` for ever.
    init(_ answers: [Answer] = [], then: Answer) {
        state = Mutex((answers, then, 0))
    }

    /// How many times the provider was asked.
    var asked: Int { state.withLock { $0.asked } }

    /// From now on answers `answers` in order, then `then` for ever.
    func answer(_ answers: [Answer] = [], then: Answer) {
        state.withLock {
            $0.answers = answers
            $0.then = then
        }
    }

    /// The provider to hand to `Configuration.accessToken`.
    var provider: @Sendable () async throws -> String? {
        { [self] in
            let answer = state.withLock { state -> Answer in
                state.asked += 1
                return state.answers.isEmpty ? state.then : state.answers.removeFirst()
            }
            switch answer {
            case .token(let token): return token
            case .none: return nil
            case .failure: throw Failure()
            }
        }
    }

    /// An unsigned JWT for `user`, expiring at `expiresAt` (in 2100 by default); `tag`
    /// tells two tokens of one user apart.
    static func jwt(
        _ user: String, expiresAt: Date = Date(timeIntervalSince1970: 4_102_444_800), tag: String = "a"
    )
        -> String
    {
        func part(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let payload = #"{"sub":"\#(user)","exp":\#(Int(expiresAt.timeIntervalSince1970)),"tag":"\#(tag)"}"#
        return part(#"{"alg":"HS256","typ":"JWT"}"#) + "." + part(payload) + ".signature"
    }
}
