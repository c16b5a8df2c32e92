import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// `SettlePacer`: models waking together share its drives, and every one of them is released.
@Suite("The settle pacer", .timeLimit(.minutes(10)))
struct SettlePacerTests {
    @Test("40 models settling at once are all released, however their arrivals fall on the drives")
    func releasesEveryModel() async throws {
        let pacer = SettlePacer()
        let released = try await withTimeout(120) {
            await withTaskGroup(of: Int.self) { group in
                for model in 0..<40 {
                    group.addTask {
                        await pacer.settle()
                        return model
                    }
                }
                return await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
        }
        #expect(released == Set(0..<40))
    }

    @Test("a settle after the drives ended drives again: the pacer never stays marked as driving")
    func drivesAgainAfterRest() async throws {
        let pacer = SettlePacer()
        // Each drive yields 64 times; beside the whole suite a yield waits behind its jobs, so
        // few drives, and a guard against a hang rather than a measure of speed.
        try await withTimeout(120) {
            for _ in 0..<5 { await pacer.settle() }
        }
    }
}
