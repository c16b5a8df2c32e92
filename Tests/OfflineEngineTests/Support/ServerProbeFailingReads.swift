@testable import OfflineEngine

extension ServerProbe {
    /// Answers every read with PostgREST's error `status` and `code`; writes reach the server.
    func failReads(status: Int = 500, code: String = "XX000") {
        answer { request in
            request.method == .get ? errorResponse(status: status, code: code) : nil
        }
    }
}
