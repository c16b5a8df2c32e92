import Foundation
import Testing

@testable import OfflineEngine

/// `Configuration.accessToken`: a token provider asked before each request, its token checked
/// against the request's user before anything leaves.
@Suite("The token provider", .timeLimit(.minutes(10)))
struct ClientTokenProviderTests {
    /// A server that refuses `token` as expired.
    static func refusing(_ token: String) -> ServerProbe.Rule {
        { request in
            guard request.headers["Authorization"] == "Bearer " + token else { return nil }
            return PostgrestError(status: 401, code: "PGRST301", message: "JWT expired").response
        }
    }

    static func fixture(_ script: TokenScript, user: String? = "user-1") async throws -> ClientFixture {
        try await ClientFixture(signedInAs: user) { $0.accessToken = script.provider }
    }

    /// An old and a new token of `user-1`, and a client whose provider answers the old one.
    static func oldThenNew() async throws -> (
        old: String, new: String, script: TokenScript, fixture: ClientFixture
    ) {
        let old = TokenScript.jwt("user-1", tag: "old")
        let script = TokenScript(then: .token(old))
        return (old, TokenScript.jwt("user-1", tag: "new"), script, try await fixture(script))
    }

    @Test("it is asked before each request, and its token is what reads and writes carry")
    func askedBeforeEachRequest() async throws {
        let token = TokenScript.jwt("user-1")
        let script = TokenScript(then: .token(token))
        let fixture = try await Self.fixture(script)
        // Each ask answers a token of its own. The sign-in asks too, and under load its ask
        // landed after a count read here, so the requests are checked by the tokens they carry
        // (each its own ask's), not by counting asks.
        let answers = (1...4).map { TokenScript.jwt("user-1", tag: "ask-\($0)") }
        script.answer(answers.map { .token($0) }, then: .token(token))
        _ = try await fixture.client.from("tasks").select().execute()
        try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        let carried = fixture.probe.requests.suffix(2).map { $0.headers["Authorization"] }
        #expect(Set(carried).count == 2, "each request asked for a token of its own")
        #expect(carried.allSatisfy { header in answers.contains { header == "Bearer " + $0 } })
        // The session carries the newest token, so an offline start has it.
        let newest = try #require(carried.last ?? nil)
        let session = try await firstValue(of: fixture.client.session) {
            $0.authSession.map { "Bearer " + $0.accessToken } == newest
        }
        #expect(session.userID == "user-1")
        await fixture.client.close()
    }

    @Test("an expired token (its exp) is asked for again before the request is sent")
    func expiredTokenAskedAgain() async throws {
        let stale = TokenScript.jwt("user-1", expiresAt: Date().addingTimeInterval(-60))
        let fresh = TokenScript.jwt("user-1", tag: "fresh")
        let script = TokenScript(then: .token(fresh))
        let fixture = try await Self.fixture(script)
        script.answer([.token(stale)], then: .token(fresh))
        try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        #expect(fixture.writes.map { $0.headers["Authorization"] } == ["Bearer " + fresh])
        await fixture.client.close()
    }

    @Test("a 401 asks the provider once more and the request goes again with the new token")
    func refusedThenRetried() async throws {
        let (old, new, script, fixture) = try await Self.oldThenNew()
        // The server refuses the old token, and from then on the provider has the new one.
        let refuse = Self.refusing(old)
        fixture.probe.answer { request in
            guard let refusal = try await refuse(request) else { return nil }
            script.answer(then: .token(new))
            return refusal
        }
        let response = try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        #expect(!response.isQueued)
        #expect(fixture.writes.map { $0.headers["Authorization"] } == ["Bearer " + old, "Bearer " + new])
        #expect(await fixture.server.rows(of: "tasks") == [["id": 1]])
        await fixture.client.close()
    }

    @Test("refused with no other token: the write waits, the session says so, and it goes once a token comes")
    func waitsForToken() async throws {
        let (old, new, script, fixture) = try await Self.oldThenNew()
        fixture.probe.answer(with: Self.refusing(old))
        let response = try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        #expect(response.isQueued)
        _ = try await firstValue(of: fixture.client.session) { $0.isWaitingForToken }
        // The replay met the same refusal and waits on the retry schedule; then a token comes.
        try await fixture.sleepers(atLeast: 1)
        script.answer(then: .token(new))
        fixture.clock.advance(by: .seconds(60))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.last?.headers["Authorization"] == "Bearer " + new)
        let session = try await firstValue(of: fixture.client.session) { !$0.isWaitingForToken }
        #expect(session.authSession?.accessToken == new)
        await fixture.client.close()
    }

    @Test(
        "the provider giving again the token the server refused: the replay waits on its schedule, not at once, and the write is not rejected"
    )
    func sameRefusedTokenWaitsOnSchedule() async throws {
        let old = TokenScript.jwt("user-1", tag: "old")
        let script = TokenScript(then: .token(old))
        let fixture = try await Self.fixture(script)
        fixture.probe.answer(with: Self.refusing(old))
        let response = try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        #expect(response.isQueued)
        // The manual clock never moves, and nothing else here sleeps on it: a sleeper is the replay
        // waiting on its schedule after the refusal, and it sends nothing until the clock moves.
        try await fixture.sleepers(atLeast: 1)
        #expect(
            fixture.writes.count <= 3, "sent \(fixture.writes.count) times with a token refused each time")
        #expect(try await firstValue(of: fixture.client.rejectedMutations()) { _ in true }.isEmpty)
        await fixture.client.close()
    }

    @Test("a token of another user signs that user in, and never carries the previous user's write")
    func otherUsersToken() async throws {
        let script = TokenScript(then: .token(TokenScript.jwt("user-1")))
        let fixture = try await Self.fixture(script)
        await fixture.client.disableNetwork()
        try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        let other = TokenScript.jwt("user-2")
        script.answer(then: .token(other))
        await fixture.client.enableNetwork()
        let session = try await firstValue(of: fixture.client.session) { $0.userID == "user-2" }
        #expect(session.authSession?.accessToken == other)
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.isEmpty)
        #expect(try await fixture.client.store.queue.all().map(\.mutation.ownerID) == ["user-1"])
        await fixture.client.close()
    }

    @Test("no token from the provider: a signed-in user's write never goes with the API key alone")
    func noTokenNeverAnonymous() async throws {
        let script = TokenScript(then: .token(TokenScript.jwt("user-1")))
        let fixture = try await Self.fixture(script)
        for answer in [TokenScript.Answer.none, .failure] {
            script.answer(then: answer)
            let response = try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
            #expect(response.isQueued)
        }
        #expect(fixture.writes.isEmpty)
        _ = try await firstValue(of: fixture.client.session) { $0.isWaitingForToken }
        await fixture.client.close()
    }

    @Test("with no session given, the client starts as the user of the provider's token")
    func providerNamesTheUser() async throws {
        let token = TokenScript.jwt("user-3")
        let script = TokenScript(then: .token(token))
        let fixture = try await Self.fixture(script, user: nil)
        let session = try await firstValue(of: fixture.client.session) { $0 != .restoring }
        #expect(
            session
                == .signedIn(
                    AuthSession(
                        accessToken: token, userID: "user-3", expiresAt: session.authSession?.expiresAt)))
        _ = try await fixture.client.from("tasks").select().execute()
        #expect(fixture.gets.last?.headers["Authorization"] == "Bearer " + token)
        await fixture.client.close()
    }

    @Test(
        "without a provider, a session past its expiresAt sends nothing: writes wait, and the session says so"
    )
    func expiredSessionWithoutProvider() async throws {
        let fixture = try await ClientFixture(signedInAs: nil)
        try await fixture.client.signIn(
            AuthSession(accessToken: "token-1", userID: "user-1", expiresAt: Date().addingTimeInterval(-1)))
        let response = try await fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        #expect(response.isQueued)
        #expect(fixture.writes.isEmpty)
        _ = try await firstValue(of: fixture.client.session) { $0.isWaitingForToken }
        try await fixture.client.signIn(AuthSession(accessToken: "token-2", userID: "user-1"))
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(fixture.writes.map { $0.headers["Authorization"] } == ["Bearer token-2"])
        await fixture.client.close()
    }

    @Test("a refusal of a token the session no longer carries leaves the session signed in")
    func staleRefusal() async throws {
        let fixture = try await ClientFixture(signedInAs: nil)
        try await fixture.client.signIn(AuthSession(accessToken: "token-a", userID: "user-1"))
        let gate = Gate()
        let refuse = Self.refusing("token-a")
        fixture.probe.answer { request in
            guard request.method == .post else { return nil }
            await gate.wait()
            return try await refuse(request)
        }
        async let written = fixture.client.from("tasks").insert(["id": 1] as Row).execute()
        _ = try await gate.arrivals.values(atLeast: 1)
        try await fixture.client.signIn(AuthSession(accessToken: "token-b", userID: "user-1"))
        gate.open()
        #expect(try await written.isQueued)
        _ = try await firstValue(of: fixture.client.pendingMutationCount()) { $0 == 0 }
        #expect(try await firstValue(of: fixture.client.session) { _ in true }.isWaitingForToken == false)
        #expect(fixture.writes.last?.headers["Authorization"] == "Bearer token-b")
        await fixture.client.close()
    }

    @Test("a new opaque token from the provider replaces the session's expiry: later requests go with it")
    func opaqueTokenReplacesExpiry() async throws {
        let script = TokenScript(then: .token("opaque-2"))
        let fixture = try await ClientFixture(signedInAs: nil) { $0.accessToken = script.provider }
        try await fixture.client.signIn(
            AuthSession(accessToken: "token-1", userID: "user-1", expiresAt: Date().addingTimeInterval(-60)))
        for id in 1...2 {
            let response = try await fixture.client.from("tasks").insert(
                ["id": .number(JSONNumber(id))] as Row
            )
            .execute()
            #expect(!response.isQueued)
        }
        #expect(fixture.writes.map { $0.headers["Authorization"] } == ["Bearer opaque-2", "Bearer opaque-2"])
        await fixture.client.close()
    }

    @Test(
        "refusals of the session do not count as attempts: writes waiting through more 401s than maxAttempts are sent, not rejected"
    )
    func refusalsAreNotAttempts() async throws {
        let (old, new, script, _) = try await Self.oldThenNew()
        let fixture = try await ClientFixture(signedInAs: "user-1") {
            $0.accessToken = script.provider
            $0.maxAttempts = 3
        }
        await fixture.client.disableNetwork()
        for id in 1...4 {
            _ = try await fixture.client.from("tasks").insert(["id": .number(JSONNumber(id))] as Row)
                .execute()
        }
        fixture.probe.answer(with: Self.refusing(old))
        await fixture.client.enableNetwork()
        // Passes meet the refused token, each after a wait on the schedule, until six requests
        // were refused (or the writes were rejected: attempts counted for each refusal).
        let client = fixture.client
        _ = try await fixture.clock.driving {
            try await eventually {
                let rejected = (try? await firstValue(of: client.rejectedMutations()) { _ in true }) ?? []
                return fixture.writes.count >= 6 || !rejected.isEmpty
            }
        }
        let rejected = try await firstValue(of: client.rejectedMutations()) { _ in true }
        #expect(rejected.isEmpty, "rejected after \(fixture.writes.count) refusals of the session")
        if rejected.isEmpty {
            script.answer(then: .token(new))
            try await fixture.sleepers(atLeast: 1)
            fixture.clock.advance(by: .seconds(60))
            _ = try await firstValue(of: client.pendingMutationCount()) { $0 == 0 }
            #expect(await fixture.server.rows(of: "tasks").count == 4)
        }
        await fixture.client.close()
    }
}
