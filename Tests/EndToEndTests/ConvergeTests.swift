import ConvergeSoak
import Foundation
import OfflineEngine
import OfflineEngineTesting
import PostgresGateway
import Testing

/// Four app processes, two users (Alice on two phones that share nothing, Bob on one, and a
/// tablet they both sign in to in turn), writing and reading against one server over the
/// gateway on PostgreSQL while a chaos loop kills, stops and resumes them, restarts the
/// server, cuts answers and expires tokens; then, faults off, every device drains and fetches
/// again, and every write is checked applied once, in order, as its user, and every list equal
/// to the server's answer.
@Suite("End to end: many processes converging", .offCooperativePool, .timeLimit(.minutes(10)))
struct ConvergeTests {
    static let alice = GatewayEndToEndTests.alice
    static let bob = GatewayEndToEndTests.bob
    /// The devices and who signs in on each.
    static let devices: [(name: String, users: [String])] = [
        ("alice-phone", [alice]), ("alice-laptop", [alice]), ("bob-phone", [bob]),
        ("shared-tablet", [alice, bob]),
    ]
    /// Seconds of writes under faults: `CONVERGE_SECONDS`; unset or 0 skips the soak (`.ci/run`
    /// runs it alone for 90 s, after the other tests).
    static let seconds = ProcessInfo.processInfo.environment["CONVERGE_SECONDS"].flatMap(Double.init) ?? 0
    /// How long a device may go without progress once the faults end (a write settled, a list
    /// answered): draining a long queue steadily is not a stall.
    static let healLimit = 10.0

    @Test(
        "four processes under kills, pauses, server restarts, cut answers and expired tokens converge: every write once, in order, as its user; every list the server's",
        .enabled(if: seconds > 0, "CONVERGE_SECONDS=0 skips the soak"),
        .timeLimit(.minutes(Int(seconds) / 60 + 10)))
    func converge() async throws {
        let executable = try #require(HelperProcess.executable("ConvergeClient"), "ConvergeClient is built")
        let database = try SupabaseDatabase()
        for statement in SupabaseDatabase.convergeSchema { try database.admin.execute(statement) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "converge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gateway = try ConvergeGateway(connectionInfo: database.database.connectionInfo)
        // The server, its chaos and the checks run off the cooperative pool (the suite's
        // `.offCooperativePool`), which the tests beside this one may hold for a while: a wait
        // there is not the clients' stall.
        try await serve(gateway, database: database, folder: folder, executable: executable)
    }

    private func serve(_ gateway: ConvergeGateway, database: SupabaseDatabase, folder: URL, executable: URL)
        async throws
    {
        try await LocalHTTPServer.serving(gateway) { local in
            let processes = Self.devices.map {
                ConvergeProcess(
                    executable: executable, folder: folder, url: local.baseURL, device: $0.name,
                    users: $0.users)
            }
            do {
                try await run(processes, local: local, gateway: gateway, database: database)
            } catch {
                for process in processes { await process.end() }
                throw error
            }
        }
    }

    private func run(
        _ processes: [ConvergeProcess], local: LocalHTTPServer, gateway: ConvergeGateway,
        database: SupabaseDatabase
    ) async throws {
        let started = ContinuousClock.now
        for process in processes { try process.launch() }
        for process in processes { _ = try await process.line(startingWith: "ready", within: 60) }
        let chaos = try await ConvergeChaos(processes: processes, local: local, gateway: gateway)
            .run(for: Self.seconds)
        // Faults off: every device (launched again if it was killed last) drains, then fetches again.
        for process in processes { _ = try await process.line(startingWith: "ready", within: 60) }
        for process in processes { process.send("drain") }
        for process in processes { _ = try await process.line(startingWith: "drained", within: 120) }
        for process in processes { process.send("dump") }
        var dumps: [String: ConvergeDump] = [:]
        for process in processes {
            let line = try await process.line(startingWith: "healed ", within: 120)
            dumps[process.device] = ConvergeDump(json: String(line.dropFirst("healed ".count)))
        }
        for process in processes { process.send("quit") }
        // Closed and gone before their folders are removed.
        for process in processes { try await awaitCondition(within: 60) { !process.isRunning } }
        var answers: [ConvergeCheck.Answer] = []
        for device in Self.devices {
            for user in device.users {
                for name in ConvergeLists.names {
                    let rows = try await serverAnswer(local, as: SupabaseDatabase.session(user)) {
                        ConvergeLists.query(name, user: user, device: device.name, on: $0)
                    }
                    answers.append(
                        ConvergeCheck.Answer(device: device.name, user: user, name: name, rows: Array(rows)))
                }
            }
        }
        let check = ConvergeCheck(
            logs: Dictionary(
                uniqueKeysWithValues: processes.map { ($0.device, ConvergeLog.read(path: $0.logPath)) }),
            notes: try database.notes(), history: try database.noteHistory(), requests: gateway.writeRequests,
            dumps: dumps, answers: answers, healLimit: Self.healLimit)
        print(
            "converge: \(check.writes) writes, \(chaos.kills) kills, \(chaos.pauses) pauses, \(check.lost) lost, "
                + "\(check.duplicated) duplicated, \(check.wrongUser) wrong-user, \(check.diverged) diverged, "
                + "\(check.stalled) stalled")
        let outcomes = check.outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        let heal = dumps.values.map(\.healSeconds).max() ?? 0
        let stall = dumps.values.map(\.stallSeconds).max() ?? 0
        print(
            "converge detail: \(Self.seconds) s of faults, \(processes.count) processes; writes: "
                + outcomes.joined(separator: ", ")
                + "; \(chaos.serverRestarts) server restarts, \(chaos.cuts) cuts, "
                + "\(chaos.expiries) token expiries; \(gateway.writeRequests.count) write requests; "
                + "\(check.reordered) reordered, \(check.reappliedInPlace) updates re-applied in place, "
                + "\(check.rejected) rejected, \(check.threw) threw; slowest heal \(String(format: "%.1f", heal)) s, "
                + "longest without progress \(String(format: "%.1f", stall)) s; "
                + "total \(ContinuousClock.now - started)")
        for sample in check.samples { print("  \(sample)") }
        #expect(check.writes > 0)
        if Self.seconds >= 30 { #expect(chaos.kills > 0 && chaos.pauses > 0, "the chaos killed and paused") }
        #expect(check.lost == 0)
        #expect(check.duplicated == 0)
        #expect(check.wrongUser == 0)
        #expect(check.diverged == 0)
        #expect(check.stalled == 0)
        #expect(check.reordered == 0)
        #expect(check.rejected == 0)
        #expect(check.threw == 0)
    }
}
