import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// The soak of the acceptance rule on users and writes (see ``UserSoak`` for how it runs and
/// ``UserSoakTally`` for what each count means). `SOAK_SEED` picks another seed.
@Suite("Soak: writes while users switch", .timeLimit(.minutes(10)))
struct ClientUserSoakTests {
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["SOAK_SEED"].flatMap { UInt64($0) } ?? 1
    }

    /// About one request in six fails; each fault at these rates still lets the run finish.
    static let faults = RowSecurityServer.FaultRates(
        lostAfterApplying: 0.05, unavailable: 0.04, proxyPage: 0.03, portalPage: 0.02,
        portalPageAfterApplying: 0.02)

    @Test(
        "A soak: 8 writers, 10,000 mixed writes, two users switching sign-in throughout, the server enforcing row-level security per user and randomly losing answers after applying them, 503s, 520 HTML pages and 200 HTML pages; none lost, duplicated, sent as the wrong user or falsely rejected"
    )
    func soakUsers() async throws {
        let settings = UserSoak.Settings(seed: Self.seed, faults: Self.faults)
        let tally = try await withTimeout(150) { try await UserSoak(settings: settings).run() }
        for line in tally.lines { print(line) }
        #expect(tally.writes == 10_000)
        #expect(tally.usersSoakFaults == [:])
    }

    @Test(
        "A soak: 8 writers, 10,000 mixed inserts, updates and deletes of one user, the network flapping every few writes and answers lost after commit; the server holds every write once, in each writer's order"
    )
    func soakFlapping() async throws {
        var settings = UserSoak.Settings(
            seed: Self.seed,
            faults: RowSecurityServer.FaultRates(
                lostAfterApplying: 0.08, unavailable: 0, proxyPage: 0, portalPage: 0,
                portalPageAfterApplying: 0))
        settings.users = ["A"]
        settings.movesEvery = 2...6
        let tally = try await withTimeout(150) { [settings] in
            try await UserSoak(settings: settings).run()
        }
        print(tally.flappingLine)
        for line in tally.lines.dropFirst() {
            print(line.replacingOccurrences(of: "soak-users", with: "soak"))
        }
        #expect(tally.writes == 10_000)
        #expect(tally.flaps > 100)
        #expect(tally.lost == 0)
        #expect(tally.duplicated == 0)
        #expect(tally.reordered == 0)
        #expect(tally.falseRejections == 0)
        #expect(tally.leftQueued == 0)
    }

    /// The harness checked against itself: with a server that never fails and a network that
    /// never goes down, every write is sent at once and every count must be zero; a non-zero
    /// count in the soak comes from the faults and outages the engine must weather.
    @Test("the soak's harness counts zero when the server never fails and the network stays up")
    func harnessWithoutFaults() async throws {
        var settings = UserSoak.Settings(seed: Self.seed, faults: .none)
        settings.writes = 2_000
        settings.networkOutages = false
        let tally = try await withTimeout(60) { [settings] in try await UserSoak(settings: settings).run()
        }
        for line in tally.lines {
            print(line.replacingOccurrences(of: "soak-users", with: "soak-users (no faults)"))
        }
        #expect(tally.writes == 2_000)
        #expect(tally.usersSoakFaults == [:])
    }
}
