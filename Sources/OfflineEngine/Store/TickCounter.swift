import Synchronization

/// The store's change ticks, counted in memory: a tick is read without a commit, so a request
/// costs none. At open the count starts above every tick stored anywhere (the stored counter,
/// marks, lists' marks, the replay log), so ticks keep growing across relaunches; a commit that
/// stores a tick of a change stores the counter with it (``Store/storeTick(_:_:)``).
final class TickCounter: Sendable {
    private let last: Mutex<Int64>

    /// A counter whose next tick is `last + 1`.
    init(after last: Int64) {
        self.last = Mutex(last)
    }

    /// A new tick, larger than every tick handed out before, in call order.
    func next() -> Int64 {
        last.withLock { last in
            last += 1
            return last
        }
    }

    /// The largest tick stored in the database behind `connection`.
    static func largestStored(_ connection: SQLiteConnection) throws(StoreError) -> Int64 {
        // `list_usage.mark` is saved with every list's mark (and reads no rows' bytes).
        let largest = try connection.query(
            """
            SELECT MAX(
                COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'tick'), 0),
                COALESCE((SELECT MAX(tick) FROM marks), 0),
                COALESCE((SELECT MAX(mark) FROM list_usage), 0),
                COALESCE((SELECT MAX(tick) FROM replay_log), 0))
            """
        ) { row in row.integer(0) }
        return largest.first ?? 0
    }
}
