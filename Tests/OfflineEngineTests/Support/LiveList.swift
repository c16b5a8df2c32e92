import OfflineEngine
import OfflineEngineTesting

/// A live read kept open for a whole test (so its refreshes keep running between checks), its
/// snapshots recorded in order.
final class LiveList: Sendable {
    let log = AsyncLog<QuerySnapshot>()
    /// How the read ended, once it has: `nil` when it finished, else the error it threw.
    let endings = AsyncLog<String?>()
    private let reader: Task<Void, Never>

    init(_ read: ReadQuery) {
        let (log, endings) = (log, endings)
        reader = Task {
            do {
                for try await snapshot in read.snapshots() { log.append(snapshot) }
                endings.append(nil)
            } catch {
                endings.append(String(describing: error))
            }
        }
    }

    /// How many snapshots were recorded so far.
    var count: Int { log.values.count }

    /// The first snapshot, from the latest one recorded on (or, with `after`, from the one
    /// recorded after that many), that meets `condition`; fails after `seconds` instead of
    /// hanging.
    func first(
        after recorded: Int? = nil, within seconds: Double = 30,
        where condition: @escaping @Sendable (QuerySnapshot) -> Bool
    ) async throws -> QuerySnapshot {
        try await withTimeout(seconds) { [log] in
            var checked = recorded ?? max(0, log.values.count - 1)
            while true {
                let all = try await log.values(atLeast: checked + 1)
                if let hit = all[checked...].first(where: condition) { return hit }
                checked = all.count
            }
        }
    }

    /// Stops reading.
    func stop() {
        reader.cancel()
    }
}
