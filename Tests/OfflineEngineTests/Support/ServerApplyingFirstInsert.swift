@testable import OfflineEngine

extension ClientFixture {
    /// The server applies the first insert into `tasks` that reaches it; what comes back is what
    /// `answer` gives, or, when it throws, the error in place of the answer (an answer lost).
    func applyingFirstInsert(answering answer: @escaping @Sendable () throws -> HTTPResponse) {
        let server = server
        let first = Turns(1)
        probe.answer { request in
            guard request.method == .post, first.take()
            else { return nil }
            await server.setRows(await server.rows(of: "tasks") + request.bodyRows, of: "tasks")
            return try answer()
        }
    }
}
