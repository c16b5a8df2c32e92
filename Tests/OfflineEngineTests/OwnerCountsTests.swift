import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// `OwnerCounts`, the queue's writes per owner as the sync status publishes them: a short list in
/// the owners' order where a dictionary was, which must count as the dictionary did.
@Suite("Queued writes per owner")
struct OwnerCountsTests {
    @Test("counts made in any order are equal, with equal hashes")
    func orderDoesNotMatter() {
        var first = OwnerCounts()
        first.add(2, to: "b")
        first.add(1, to: nil)
        first.add(3, to: "a")
        var second = OwnerCounts()
        second.add(3, to: "a")
        second.add(2, to: "b")
        second.add(1, to: nil)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first.owners == [nil, "a", "b"])
        #expect(first == ["a": 3, "b": 2, nil: 1])
    }

    @Test("a count that reaches zero leaves, and nothing is taken from an owner with none")
    func zeroLeaves() {
        var counts: OwnerCounts = ["a": 1]
        counts.add(-1, to: "a")
        #expect(counts.isEmpty && counts["a"] == nil)
        counts.add(-1, to: "b")
        #expect(counts.isEmpty && counts == OwnerCounts())
    }

    @Test("random changes give the counts a dictionary gives")
    func matchesADictionary() {
        var random = SeededRandom(seed: 29)
        let owners: [String?] = [nil, "7f3c2a9e", "0b1d4c5e", "9a8f1234", "a"]
        for _ in 0..<200 {
            var counts = OwnerCounts()
            var model: [String?: Int] = [:]
            for _ in 0..<50 {
                let owner = owners[Int.random(in: 0..<owners.count, using: &random)]
                let delta = Bool.random(using: &random) ? 1 : -1
                counts.add(delta, to: owner)
                let count = (model[owner] ?? 0) + delta
                model[owner] = count > 0 ? count : nil
                for owner in owners { #expect(counts[owner] == model[owner]) }
                #expect(counts.isEmpty == model.isEmpty)
                #expect(Set(counts.owners) == Set(model.keys))
            }
        }
    }
}
