import Testing

@testable import OfflineEngine

/// The reference's "An old answer never replaces a newer write": an answer whose request left
/// before the table's last change is refused and asked again; one that left before
/// `clearLocalData()` is refused and not asked again (it may carry the cleared session's token);
/// one that left before the cache passed to a new owner is not written, and asked again.
@Suite("Which old answers are refused, and which are asked again")
struct CacheOwnershipRefusalTests {
    /// A cache cleared at tick 10 and passed to a new owner at tick 20.
    private static var ownership: CacheOwnership {
        var ownership = CacheOwnership(owner: "user-2")
        ownership.clearedAt = 10
        ownership.ownerChangedAt = 20
        return ownership
    }

    @Test("an answer that left after every change is written")
    func newAnswerWritten() {
        #expect(Self.ownership.refusal(ofAnswerAt: 30, mark: 25) == nil)
        #expect(Self.ownership.refusal(ofAnswerAt: 25, mark: 25) == nil)
    }

    @Test("left before the table's last change: refused, asked again")
    func beforeTableChange() {
        #expect(Self.ownership.refusal(ofAnswerAt: 24, mark: 25) == .refused(askAgain: true))
    }

    @Test("left before the cache passed to a new owner: not written, asked again")
    func beforeNewOwner() {
        #expect(Self.ownership.refusal(ofAnswerAt: 15, mark: 0) == .refused(askAgain: true))
        var changing = Self.ownership
        _ = changing.beginOwnerChange()
        #expect(changing.refusal(ofAnswerAt: 30, mark: 0) == .refused(askAgain: true))
    }

    @Test("left before clearLocalData(): refused and not asked again, whatever else changed since")
    func beforeClear() {
        #expect(Self.ownership.refusal(ofAnswerAt: 9, mark: 0) == .refused(askAgain: false))
        #expect(Self.ownership.refusal(ofAnswerAt: 9, mark: 25) == .refused(askAgain: false))
    }

    @Test(
        "while a clear waits for its tick, every answer is refused and asked again (with the signed-out session)"
    )
    func duringClear() {
        var clearing = Self.ownership
        clearing.beginClear()
        #expect(clearing.refusal(ofAnswerAt: 1_000, mark: 0) == .refused(askAgain: true))
        #expect(clearing.owner == nil)
    }
}
