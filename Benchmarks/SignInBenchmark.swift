import Foundation
import OfflineEngine
import OfflineEngineTesting

/// Sign-ins on a device shared by two users (each with a cache of their own, the default): how
/// many the client runs a second, against SQLite's one commit per row in the same run. A sign-in
/// of the other user changes whose cache is shown and stores the owner, the session and the claim
/// of owner-less writes; `sign_in.ratio_to_commit_per_row` near 1 means one commit's cost.
enum SignInBenchmark {
    static func run() async throws {
        let signIns = 400
        let perRow = try StoreBenchmark.rawSingleTransaction(count: 2_000, commitEachRow: true)
        var best = 0.0
        for _ in 0..<3 {
            best = max(best, try await signInsPerSecond(signIns))
        }
        let ratio = (best / perRow * 1_000).rounded() / 1_000
        print(
            #"{"bench":"sign_in","value":\#(Int(best)),"unit":"sign-ins/s","sign_ins":\#(signIns),"#
                + #""commit_per_row":\#(Int(perRow)),"ratio_to_commit_per_row":\#(ratio)}"#)
    }

    /// Two users signing in in turn, offline, on a client of their own.
    private static func signInsPerSecond(_ count: Int) async throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "signin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = Configuration(
            url: URL(string: "https://bench.invalid")!, apiKey: "bench", storage: .directory(folder),
            transport: InMemoryPostgREST(tables: ["tasks": []]))
        let client = try await OfflineClient(configuration: configuration)
        await client.disableNetwork()
        let users = ["7f3c2a9e-0b1d-4c5e-9a8f-000000000001", "7f3c2a9e-0b1d-4c5e-9a8f-000000000002"]
        try await client.signIn(AuthSession(accessToken: "warm", userID: users[1], expiresAt: nil))
        let start = ContinuousClock.now
        for index in 0..<count {
            try await client.signIn(
                AuthSession(accessToken: "token-\(index)", userID: users[index % 2], expiresAt: nil))
        }
        let elapsed = ContinuousClock.now - start
        await client.close()
        return Double(count)
            / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
