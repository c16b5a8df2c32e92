import Foundation

/// A clock whose time runs `speedup` times faster than real time: a sleep of 60 s on it lasts
/// 60 ms of real time at the default 1,000. For soaks, where the engine's retry schedule
/// (300 ms up to 60 s) must really elapse, only quicker.
struct ScaledClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let origin = ContinuousClock.now
    let speedup: Int

    init(speedup: Int = 1_000) {
        precondition(speedup > 0)
        self.speedup = speedup
    }

    var now: Instant { Instant(offset: (ContinuousClock.now - origin) * speedup) }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let remaining = now.duration(to: deadline)
        guard remaining > .zero else {
            try Task.checkCancellation()
            return
        }
        try await Task.sleep(for: remaining / speedup)
    }
}
