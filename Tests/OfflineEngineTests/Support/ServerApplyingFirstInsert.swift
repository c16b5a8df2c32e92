@testable import OfflineEngine

extension ClientFixture {
    /// The server applies the first insert into `tasks` that reaches it; what comes back is what
    /// `answer` gives, or, when it throws, the error in place of the answer (an answer lost).
    func applyingFirstInsert(answering answer: @escaping @Sendable () async throws -> HTTPResponse) {
        let server = server
        let first = Turns(1)
        probe.answer { request in
            guard request.method == .post, first.take()
            else { return nil }
            await server.setRows(await server.rows(of: "tasks") + request.bodyRows, of: "tasks")
            return try await answer()
        }
    }

    /// ``applyingFirstInsert(answering:)`` with no answer: the request waits until its task is
    /// cancelled (a close, the caller's task), as a request out on a slow network.
    func applyingFirstInsertAndHanging() {
        applyingFirstInsert {
            try await Task.sleep(for: .seconds(3_600))
            throw TestFailure(name: "the hanging request was not cancelled")
        }
    }
}
