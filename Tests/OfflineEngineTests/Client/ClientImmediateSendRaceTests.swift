import Foundation
import OfflineEngineTesting
import Synchronization
import Testing

@testable import OfflineEngine

/// A write sent at once is checked and handed to the transport with no suspension in between:
/// a clear or another user's sign-in run at any suspension point of the write never sees the
/// write leave afterwards as the user who was signed in before.
///
/// Each test runs the write on a ``SteppedExecutor`` and, for every k, stops it after its k-th
/// job, runs the clear or the sign-in to its end, then lets the write finish.
@Suite(.timeLimit(.minutes(10)))
struct ClientImmediateSendRaceTests {
    @Test("a write sent at once never leaves as its owner after a clear ran at any of its suspensions")
    func clearAtEverySuspension() async throws {
        var sent = 0
        var cleared = 0
        try await everyInterleaving { client in
            try await client.clearLocalData()
        } check: { outcome, client in
            switch outcome {
            case .success(.sent): sent += 1
            case .success(let result): Issue.record("a clear leaves nothing queued, got \(result)")
            case .failure(let error):
                #expect(error as? ClientError == .cleared)
                cleared += 1
            }
            let queued = try await client.store.queue.all()
            #expect(queued.allSatisfy { $0.mutation.ownerID != "A" })
        }
        // Both sides of the check were reached: sent before the clear, and dropped by it.
        #expect(sent > 0 && cleared > 0)
    }

    @Test(
        "a write sent at once never leaves as its owner after another user signed in at any of its suspensions"
    )
    func signInAtEverySuspension() async throws {
        var sent = 0
        var queued = 0
        try await everyInterleaving { client in
            try await client.signIn(AuthSession(accessToken: "token-B", userID: "B"))
        } check: { outcome, _ in
            switch outcome {
            case .success(.sent): sent += 1
            case .success(.queued(let pending)):
                // Kept for its owner, to go when A signs in again.
                #expect(pending.ownerID == "A")
                queued += 1
            case .failure(let error): Issue.record("the write should be sent or queued, got \(error)")
            }
        }
        #expect(sent > 0 && queued > 0)
    }

    /// For each k, a new client signed in as A sends a write at once, is stopped after its k-th
    /// job while `interleave` runs to its end, then finishes and is checked: every request that
    /// reached the transport carried the token of the session signed in at that moment.
    private func everyInterleaving(
        _ interleave: @escaping @Sendable (OfflineClient) async throws -> Void,
        check: (Result<WriteResult, any Error>, OfflineClient) async throws -> Void
    ) async throws {
        var stops = 0
        var finished = false
        while !finished, stops < 1000 {
            let transport = SessionCheckingTransport(
                server: InMemoryPostgREST(tables: ["tasks": []], primaryKeys: [:]))
            let fixture = try await ClientFixture(signedInAs: "A") { $0.transport = transport }
            let client = fixture.client
            transport.watch(client)
            let executor = SteppedExecutor()
            let write = executor.start {
                try await client.from("tasks").insert(["id": 1] as Row).execute().outcome
            }
            var steps = 0
            while steps < stops, !finished {
                finished = !(await executor.step())
                steps += 1
            }
            _ = executor.start { try await interleave(client) }
            await executor.runAll(newestFirst: true)
            await executor.runAll(newestFirst: false)
            executor.stop()
            let outcome = await write.result
            #expect(transport.mismatches.isEmpty, "stopped after \(stops) jobs: \(transport.mismatches)")
            try await check(outcome, client)
            await client.close()
            stops += 1
        }
        #expect(finished)
    }
}

/// Hands requests to a server and notes each whose token is not the one of the session signed
/// in when it is handed over (the check runs in the same step as the hand-off).
private final class SessionCheckingTransport: HTTPTransport {
    let server: any HTTPTransport
    private let client = Mutex<OfflineClient?>(nil)
    private let seen = Mutex<[String]>([])

    init(server: any HTTPTransport) {
        self.server = server
    }

    /// The requests that left with another token than the signed-in session's.
    var mismatches: [String] { seen.withLock { $0 } }

    /// Checks each request from now on against `client`'s session.
    func watch(_ client: OfflineClient) {
        self.client.withLock { $0 = client }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if request.method != .get, let client = client.withLock({ $0 }) {
            let session = client.engine.outputs.session.value
            let expected = session.authSession.map { "Bearer \($0.accessToken)" } ?? "Bearer anon-key"
            if request.authorization != expected {
                seen.withLock { $0.append("\(request.authorization ?? "none") while \(session)") }
            }
        }
        return try await server.send(request)
    }
}
