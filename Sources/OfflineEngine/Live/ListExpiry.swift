import Streams

/// Ends a live read's list when its time to live has passed on the client's clock: each time an
/// answer is written as the read's list, a timer of the list's time to live starts (replacing
/// the one before); when it fires, `expire` is told the answer's serial, and the list stops
/// counting as the server's answer if no later one came (see `EngineState.expire(_:answer:)`).
///
/// Runs beside the read's refresh, as a child of the read's shared iteration: the last reader
/// leaving cancels it, and it returns only once its timer has ended.
struct ListExpiry: Sendable {
    let key: String
    let timeToLive: Duration
    let clock: any Clock<Duration>
    let facts: StateBroadcast<TableFacts, Never>
    let expire: @Sendable (_ serial: Int) async -> Void

    func run() async {
        var timer: Task<Void, Never>?
        var timed: Int?
        for await facts in facts.values() {
            let serial = facts.lists[key]?.answer?.serial
            guard serial != timed else { continue }
            timed = serial
            timer?.cancel()
            await timer?.value
            timer = serial.map(start)
        }
        timer?.cancel()
        await timer?.value
    }

    private func start(_ serial: Int) -> Task<Void, Never> {
        let (clock, timeToLive, expire) = (clock, timeToLive, expire)
        return Task {
            do {
                try await clock.sleep(for: timeToLive)
            } catch {
                return
            }
            await expire(serial)
        }
    }
}
