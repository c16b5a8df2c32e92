/// How many scenarios play at once. Swift Testing starts every case of every spec suite together
/// (hundreds on a 2-core machine), and each scenario's waits are limited in real time: played
/// all at once, the last ones to get a thread would fail their limits waiting for the others.
/// A scenario's limits start once it holds a slot.
actor ScenarioSlots {
    /// The slots every spec suite shares.
    static let shared = ScenarioSlots(count: 6)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        free = count
    }

    /// Runs `body` once a slot is free, holding it until `body` returns.
    func playing(_ body: @Sendable () async -> Void) async {
        if free > 0 {
            free -= 1
        } else {
            // The slot is handed over by `release()`: `free` is not counted back meanwhile.
            await withCheckedContinuation { waiting.append($0) }
        }
        await body()
        release()
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
