import Streams

/// Ends a live read's list when its time to live has passed on the client's clock: each time an
/// answer is written as the read's list, a timer of the list's time to live starts (a later
/// answer starts it again); when it runs out, `expire` is told the answer's serial, and the list
/// stops counting as the server's answer if no later one came (see `CachedLists.expire(_:answer:in:)`).
///
/// Runs beside the read's refresh, as a child of the read's shared iteration: the last reader
/// leaving cancels it. The timer and the watch for a newer answer race as the two child tasks of
/// a group per answer, so nothing outlives `run()`.
struct ListExpiry: Sendable {
    let key: String
    let timeToLive: Duration
    let clock: any Clock<Duration>
    let facts: StateBroadcast<TableFacts, Never>
    let expire: @Sendable (_ serial: Int) async -> Void

    private enum Ending: Sendable {
        /// The time to live ran out.
        case elapsed
        /// Another answer (or none) is the list's now, or the read stopped.
        case replaced
    }

    func run() async {
        var timed: Int?
        while let serial = await answer(after: timed) {
            timed = serial
            if await race(serial) == .elapsed { await expire(serial) }
        }
    }

    /// The serial of the answer that wrote the list, once it is one other than `previous`; `nil`
    /// when the read stopped first.
    private func answer(after previous: Int?) async -> Int? {
        for await facts in facts.values() {
            if let serial = facts.lists[key]?.answer?.serial, serial != previous { return serial }
        }
        return nil
    }

    /// Whether the time to live of answer `serial` runs out before the list holds another.
    private func race(_ serial: Int) async -> Ending {
        let (clock, timeToLive, facts, key) = (clock, timeToLive, facts, key)
        return await withTaskGroup(of: Ending.self) { group in
            group.addTask {
                do {
                    try await clock.sleep(for: timeToLive)
                    return .elapsed
                } catch {
                    return .replaced
                }
            }
            group.addTask {
                for await facts in facts.values() where facts.lists[key]?.answer?.serial != serial {
                    return .replaced
                }
                return .replaced
            }
            let first = await group.next() ?? .replaced
            group.cancelAll()
            return Task.isCancelled ? .replaced : first
        }
    }
}
