/// What of a table's cached lists must be read from the store (see `Tables.listsToLoad`).
enum ListLoad: Sendable, Equatable {
    /// Every cached list of the table, and its replay log.
    case all
    /// One list (and the replay log, when it was not read yet).
    case one(key: String, replayLog: Bool)
}

/// What was read of one table from the store: some or all of its cached lists, and its replay
/// log. Reading needs no actor; the state takes the result in with `Tables.load(_:_:owner:)`.
struct TableRead: Sendable {
    var lists: [StoredList]
    var replayed: [ReplayEntry]?
    /// Whether `lists` are all the table's cached lists.
    var complete: Bool

    /// Reads what `load` names, the lists from `lists` (one user's cache). A replay log that holds
    /// an UPDATE makes it read every list: the overlay may need their rows.
    static func read(_ load: ListLoad, of table: TableID, lists: ListTable, from store: Store) async throws
        -> TableRead
    {
        switch load {
        case .all:
            let lists = try await lists.all(table: table.table, schema: table.schema)
            return TableRead(lists: lists, replayed: try await replayLog(of: table, store), complete: true)
        case .one(let key, let withReplayLog):
            let replayed = withReplayLog ? try await replayLog(of: table, store) : nil
            if replayed?.contains(where: { $0.mutation.operation == .update }) == true {
                let lists = try await lists.all(table: table.table, schema: table.schema)
                return TableRead(lists: lists, replayed: replayed, complete: true)
            }
            let list = try await lists.list(key: key)
            return TableRead(lists: list.map { [$0] } ?? [], replayed: replayed, complete: false)
        }
    }

    private static func replayLog(of table: TableID, _ store: Store) async throws -> [ReplayEntry] {
        try await store.replayLog.writes(table: table.table, schema: table.schema)
            .map { ReplayEntry(tick: Int($0.tick), mutation: $0.mutation) }
    }
}
