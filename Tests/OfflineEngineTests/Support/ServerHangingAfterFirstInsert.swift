import Foundation

@testable import OfflineEngine

extension ClientFixture {
    /// The server applies the first insert into `tasks` that reaches it and never answers it: the
    /// request waits until its task is cancelled (a close), as a request out on a slow network.
    func applyingFirstInsertAndHanging() {
        let server = server
        let first = Turns(1)
        probe.answer { request in
            guard request.method == .post, first.take() else { return nil }
            await server.setRows(await server.rows(of: "tasks") + request.bodyRows, of: "tasks")
            try await Task.sleep(for: .seconds(3_600))
            throw TestFailure(name: "the hanging request was not cancelled")
        }
    }
}
