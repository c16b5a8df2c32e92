import Foundation

@testable import OfflineEngine

extension WriteResult {
    /// The pending write's id, when the write was queued.
    var queuedID: UUID? {
        if case .queued(let pending) = self { return pending.id }
        return nil
    }
}
