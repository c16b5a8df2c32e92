import Foundation
import Testing

@testable import OfflineEngine

/// `rpc(_:params:)`: a database function called at once as the session signed in now, online
/// only and never queued.
@Suite("Function calls", .timeLimit(.minutes(10)))
struct ClientRemoteCallTests {
    private struct Range: Encodable, Sendable {
        var from: Int
        var to: Int
    }

    @Test(
        "rpc sends POST /rest/v1/rpc/<function> with its params as a JSON object and the session's token, and decodes the value"
    )
    func callsFunction() async throws {
        let fixture = try await ClientFixture()
        fixture.probe.answer { request in
            request.url.path.hasSuffix("/rpc/count_between")
                ? HTTPResponse(
                    status: 200, headers: ["Content-Type": "application/json"], body: Data("42".utf8))
                : nil
        }
        let answer: CallResponse<Int> = try await fixture.client.rpc(
            "count_between", params: Range(from: 1, to: 9)
        ).execute()
        #expect(answer.value == 42 && answer.status == 200)
        let sent = try #require(fixture.writes.last)
        #expect(sent.method == .post)
        #expect(sent.url.path == "/rest/v1/rpc/count_between")
        #expect(sent.headers["Authorization"] == "Bearer token-user-1")
        #expect(try JSONText.parse(sent.body ?? Data()) == (try JSONText.parse(#"{"from":1,"to":9}"#)))
        let scoped = try fixture.client.schema("audit").rpc("count_between", params: Range(from: 0, to: 1))
        _ = try await scoped.execute()
        #expect(fixture.writes.last?.headers["Content-Profile"] == "audit")
        await fixture.client.close()
    }

    @Test(
        "rpc is online only: with the network known down it throws ClientError.offline, sends nothing and queues nothing"
    )
    func onlineOnly() async throws {
        let fixture = try await ClientFixture()
        await fixture.client.disableNetwork()
        await #expect(throws: ClientError.offline) { try await fixture.client.rpc("archive_done").execute() }
        #expect(fixture.writes.isEmpty)
        #expect(try await firstValue(of: fixture.client.pendingMutationCount()) { _ in true } == 0)
        await fixture.client.close()
    }

    @Test("a call the server refuses throws its PostgrestError")
    func refused() async throws {
        let fixture = try await ClientFixture()
        fixture.probe.answer { _ in errorResponse(status: 400, code: "P0001", message: "no archive today") }
        do {
            try await fixture.client.rpc("archive_done").execute()
            Issue.record("the refusal was not thrown")
        } catch let refusal as PostgrestError {
            #expect(refusal.code == "P0001" && refusal.status == 400)
        }
        await fixture.client.close()
    }
}
