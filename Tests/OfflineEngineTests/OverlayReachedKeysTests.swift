import Testing

@testable import OfflineEngine

@Suite("Overlay: keys the writes reach", .timeLimit(.minutes(10)))
struct OverlayReachedKeysTests {
    @Test("the fingerprint bits never hide a reached key and the set answers the rest")
    func reachedKeys() {
        var reached = ReachedKeys(minimumCapacity: 8)
        let wanted = (0..<500).map { "00000000-0000-4000-8000-\(String(1_000_000_000_000 + $0 * 7))" }
        for key in wanted { reached.insert(key) }
        #expect(wanted.allSatisfy(reached.contains))
        #expect(!reached.contains("00000000-0000-4000-8000-999999999999"))
        #expect(!reached.contains(""))
        #expect(ReachedKeys(minimumCapacity: 1).isEmpty)
    }
}
