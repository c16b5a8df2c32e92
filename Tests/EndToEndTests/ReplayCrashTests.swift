import Foundation
import OfflineEngine
import OfflineEngineTesting
import PostgresGateway
import Testing

/// The app process killed with SIGKILL in the middle of a replay and started again, round after
/// round, while the server and PostgreSQL live on in this process: every acknowledged write
/// reaches the server exactly once, in the order it was made.
@Suite("End to end: killed during replay", .offCooperativePool, .timeLimit(.minutes(10)))
struct ReplayCrashTests {
    static let rounds = 20
    static let user = GatewayEndToEndTests.alice

    @Test(
        "SIGKILL during replay, 20 rounds: the server holds every acknowledged write once, in order, and none is rejected"
    )
    func killedDuringReplay() async throws {
        let helper = try #require(HelperProcess.executable("ReplayCrashHelper"), "ReplayCrashHelper is built")
        let database = try SupabaseDatabase()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "e2e-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = PostgresGateway.token(userID: Self.user)
        var acknowledged: [(id: String, n: Int)] = []
        var drainedRejected: Int?
        var killedInReplay = 0
        try await LocalHTTPServer.serving(try database.gateway()) { local in
            for round in 0...Self.rounds {
                // The last round queues nothing and is not killed: it replays what is left.
                let last = round == Self.rounds
                let count = last ? 0 : Int.random(in: 5...40)
                let killDuringQueueing = !last && round % 4 == 3
                let killAfterAcks = Int.random(in: 1...max(count, 1))
                let lines = try await HelperProcess.run(
                    helper,
                    [
                        folder.path, local.baseURL.absoluteString, Self.user, token, String(round * 1_000),
                        String(count),
                    ]
                ) { line in
                    guard !last else { return nil }
                    if killDuringQueueing, line.hasPrefix("ack"),
                        line.hasSuffix(" \(round * 1_000 + killAfterAcks - 1)")
                    {
                        return .zero
                    }
                    return line == "online" && !killDuringQueueing
                        ? .milliseconds(Int.random(in: 0...40)) : nil
                }
                for line in lines where line.hasPrefix("ack ") {
                    let parts = line.split(separator: " ")
                    acknowledged.append((String(parts[1]), Int(parts[2]) ?? -1))
                }
                if lines.contains("online") && !lines.contains(where: { $0.hasPrefix("drained") }) {
                    killedInReplay += 1
                }
                if last {
                    drainedRejected = lines.first { $0.hasPrefix("drained ") }.flatMap {
                        Int($0.dropFirst(8))
                    }
                }
            }
        }
        let held = try database.admin.execute("SELECT id::text, n FROM public.journal ORDER BY seq")
        var copies: [String: Int] = [:]
        var copiesOfN: [Int: Int] = [:]
        for row in held {
            copies[row[0] ?? "", default: 0] += 1
            copiesOfN[Int(row[1] ?? "") ?? -1, default: 0] += 1
        }
        let lost = acknowledged.filter { copies[$0.id] == nil }.count
        let duplicated = copiesOfN.values.filter { $0 > 1 }.count
        let numbers = held.compactMap { $0[1].flatMap { Int($0) } }
        let misordered = zip(numbers, numbers.dropFirst()).filter { $0 >= $1 }.count
        print(
            "e2e-crash: \(Self.rounds) rounds, \(acknowledged.count) writes, \(lost) lost, \(duplicated) duplicated"
                + " (\(held.count) on the server, \(misordered) out of order, \(killedInReplay) runs killed mid-replay)"
        )
        #expect(drainedRejected == 0, "the last run drains the queue with nothing rejected")
        #expect(acknowledged.count >= Self.rounds)
        #expect(killedInReplay >= 1, "some runs were killed with writes still going out")
        #expect(lost == 0)
        #expect(duplicated == 0)
        #expect(misordered == 0)
    }
}
