import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// `SettlePacer`: models waking together share its drives, and every one of them is released.
@Suite("The settle pacer")
struct SettlePacerTests {
    @Test("200 models settling at once are all released, however their arrivals fall on the drives")
    func releasesEveryModel() async throws {
        let pacer = SettlePacer()
        let released = try await withTimeout(30) {
            await withTaskGroup(of: Int.self) { group in
                for model in 0..<200 {
                    group.addTask {
                        await pacer.settle()
                        return model
                    }
                }
                return await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
        }
        #expect(released == Set(0..<200))
    }

    @Test("a settle after the drives ended drives again: the pacer never stays marked as driving")
    func drivesAgainAfterRest() async throws {
        let pacer = SettlePacer()
        try await withTimeout(30) {
            for _ in 0..<50 { await pacer.settle() }
        }
    }
}
