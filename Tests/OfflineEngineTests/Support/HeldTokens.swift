import Synchronization

@testable import OfflineEngine

/// A token provider for user-1 whose asks a test can hold at a gate: while a gate is set, each
/// ask waits there, so a request can be caught between asking for its token and leaving.
final class HeldTokens: Sendable {
    private let held = Mutex<Gate?>(nil)

    /// Holds every later ask at `gate` (`nil`: asks answer at once again).
    func hold(at gate: Gate?) {
        held.withLock { $0 = gate }
    }

    /// A fixture signed in as user-1 whose token comes from this provider.
    func fixture() async throws -> ClientFixture {
        try await ClientFixture { configuration in
            configuration.accessToken = { [self] in
                if let gate = held.withLock({ $0 }) { await gate.wait() }
                return TokenScript.jwt("user-1")
            }
        }
    }
}
