import OfflineEngineTesting
import Testing

@testable import OfflineEngine

/// The manual clock: time moves only on advance, sleepers wake in deadline order, cancellation
/// never leaves a sleeper behind.
@Suite("Manual clock", .timeLimit(.minutes(10)))
struct ManualClockTests {
    @Test("advance wakes the sleepers due, in deadline order, stepping now to each deadline")
    func wakesInDeadlineOrder() async throws {
        let clock = ManualClock()
        let woken = AsyncLog<String>()
        var tasks: [Task<Void, any Error>] = []
        // One sleeper at a time, each asleep before the next starts, so the log's order is theirs.
        for (index, (name, seconds)) in [("late", 3), ("early", 1), ("middle", 2)].enumerated() {
            tasks.append(
                Task {
                    try await clock.sleep(for: .seconds(seconds))
                    woken.append(name)
                })
            try await withTimeout { await clock.sleepers(atLeast: index + 1) }
        }
        clock.advance(by: .seconds(2))
        let firstTwo = try await withTimeout { try await woken.values(atLeast: 2) }
        #expect(Set(firstTwo) == ["early", "middle"])
        #expect(clock.sleeperCount == 1, "the late sleeper is not due")
        #expect(clock.now.offset == .seconds(2))
        clock.advance(by: .seconds(5))
        _ = try await withTimeout { try await woken.values(atLeast: 3) }
        #expect(clock.now.offset == .seconds(7))
        for task in tasks { try await task.value }
        #expect(clock.sleepLog == [.seconds(3), .seconds(1), .seconds(2)])
    }

    @Test("advance wakes only the sleepers due by its target, ties included")
    func wakesOnlyDue() async throws {
        let clock = ManualClock()
        var tasks: [Task<Void, any Error>] = []
        for seconds in [2, 1, 1, 3] {
            tasks.append(Task { try await clock.sleep(for: .seconds(seconds)) })
        }
        try await withTimeout { await clock.sleepers(atLeast: 4) }
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 0)
        for task in tasks { try await task.value }
    }

    @Test("a sleep whose deadline has come returns at once and is logged")
    func pastDeadline() async throws {
        let clock = ManualClock()
        try await clock.sleep(for: .zero)
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
        #expect(clock.sleeperCount == 0)
        #expect(clock.sleepLog == [.zero, .seconds(-1)])
    }

    @Test("cancelling a sleeper resumes it with CancellationError and removes it")
    func cancelRegistered() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(10)) }
        try await withTimeout { await clock.sleepers(atLeast: 1) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("a sleep started in a cancelled task throws at once and leaves no tombstone or sleeper")
    func cancelledBeforeRegistering() async throws {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(10))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
        // The clock still works for later sleepers.
        let later = Task { try await clock.sleep(for: .seconds(1)) }
        try await withTimeout { await clock.sleepers(atLeast: 1) }
        clock.advance(by: .seconds(1))
        try await later.value
    }

    @Test("a sleeper that sleeps again after waking sees the time of its own deadline")
    func reentrantSleeper() async throws {
        let clock = ManualClock()
        let seen = AsyncLog<Duration>()
        let task = Task {
            for _ in 0..<3 {
                try await clock.sleep(for: .seconds(1))
                seen.append(clock.now.offset)
            }
        }
        for round in 1...3 {
            try await withTimeout { await clock.sleepers(atLeast: 1) }
            clock.advance(by: .seconds(1))
            _ = try await withTimeout { try await seen.values(atLeast: round) }
        }
        try await task.value
        #expect(seen.values == [.seconds(1), .seconds(2), .seconds(3)])
        #expect(clock.sleepLog == [.seconds(1), .seconds(1), .seconds(1)])
    }

    @Test("sleepers(atLeast:) returns at once when enough sleep, and can be cancelled")
    func sleeperSyncPoint() async throws {
        let clock = ManualClock()
        await clock.sleepers(atLeast: 0)
        let waiter = Task { await clock.sleepers(atLeast: 5) }
        waiter.cancel()
        try await withTimeout { await waiter.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("advance(to:) never moves time backwards")
    func neverBackwards() {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(5))
        #expect(clock.minimumResolution == .zero)
    }
}
