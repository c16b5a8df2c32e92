@testable import OfflineEngine

extension RefreshState {
    /// The stall's cause, if stalled.
    var cause: RefreshFailure? {
        if case .stalled(let cause) = self { return cause }
        return nil
    }
}
