@testable import OfflineEngine

extension RefreshStateMachine {
    /// A machine started with the session settled, after `count` attempts in a row failed with
    /// `failure` while the network was not known down, each wait elapsed.
    static func started(failingInARow count: Int, with failure: RefreshFailure) -> RefreshStateMachine {
        var machine = RefreshStateMachine()
        _ = machine.handle(.start(sessionRestoring: false))
        for _ in 1...count {
            _ = machine.handle(.failed(failure, networkKnownDown: false))
            _ = machine.handle(.waitElapsed)
        }
        return machine
    }
}
