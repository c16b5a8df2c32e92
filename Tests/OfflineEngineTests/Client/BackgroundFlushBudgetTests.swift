import Testing

@testable import OfflineEngine

/// The time `flushInBackground(within:)` gives its flush, from the system's grant (that helper
/// is compiled on Apple platforms only; its arithmetic is here).
@Suite("A background flush's budget")
struct BackgroundFlushBudgetTests {
    @Test("in the foreground the grant reads as the largest Double: the limit, no overflow")
    func foreground() {
        #expect(
            BackgroundFlushBudget.budget(limit: .seconds(25), remaining: .greatestFiniteMagnitude)
                == .seconds(25))
        #expect(BackgroundFlushBudget.budget(limit: .seconds(25), remaining: .infinity) == .seconds(25))
        #expect(BackgroundFlushBudget.budget(limit: .seconds(25), remaining: .nan) == .seconds(25))
    }

    @Test("a grant shorter than the limit and its reserve: the grant less 5 s")
    func shortGrant() {
        #expect(BackgroundFlushBudget.budget(limit: .seconds(25), remaining: 29.5) == .milliseconds(24_500))
        #expect(BackgroundFlushBudget.budget(limit: .seconds(25), remaining: 30) == .seconds(25))
        #expect(
            BackgroundFlushBudget.budget(limit: .milliseconds(2_500), remaining: 7.25) == .milliseconds(2_250)
        )
    }

    @Test("a grant of 5 s or less: no time to flush")
    func noTime() {
        #expect(BackgroundFlushBudget.budget(limit: .seconds(25), remaining: 5) == .zero)
        #expect(BackgroundFlushBudget.budget(limit: .seconds(25), remaining: 1) == .zero)
        #expect(BackgroundFlushBudget.budget(limit: .seconds(25), remaining: -.infinity) == .zero)
    }
}
