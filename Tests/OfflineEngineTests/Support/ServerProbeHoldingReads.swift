@testable import OfflineEngine

extension ServerProbe {
    /// Holds every read until the returned gate opens; writes reach the server.
    func holdReads() -> Gate {
        let gate = Gate()
        answer { request in
            if request.method == .get { await gate.wait() }
            return nil
        }
        return gate
    }
}
