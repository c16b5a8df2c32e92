import Foundation
import Synchronization

/// The engine's durable memory: cached lists, queued writes, the replay log, rejected writes,
/// change marks, the cache owner and the stored session, kept in SQLite so a write made offline is
/// never lost and cached lists are on screen at the next launch.
///
/// Threading: one SQLite connection owned by a dedicated serial writer (a dispatch queue, not the
/// Swift cooperative pool). Every call is appended to the writer's pending list synchronously, on
/// the caller's executor, before the caller suspends (`nonisolated(nonsending)`), so work runs in
/// call order. The writer runs everything pending in one transaction (group commit) and resumes
/// the callers after the commit: a method that returns has its change on disk.
///
/// Durability: WAL with `synchronous=NORMAL` by default, which survives the app being killed at
/// any moment; `.survivesPowerLoss` switches to `synchronous=FULL`.
///
/// Exclusive use: a store folder is used by one open `Store` at a time (SQLite's exclusive locking
/// mode, held until `close`); a second `open` of the same folder, from this or another process,
/// throws `.inUse`.
package final class Store: Sendable {
    private let writer: StoreWriter

    /// Finds queued writes by id (see `QueueIndex`).
    let queueIndex = QueueIndex()

    /// The bytes the cached lists take, which the cache's budget bounds.
    package let listBytes: CacheBytes

    /// Where the store lives.
    package let storage: Storage

    /// The change ticks, counted in memory (see ``TickCounter``).
    let ticks: TickCounter

    /// Writes that were sent but not answered when the store was last closed or the app died:
    /// the server may or may not have applied them. In queue order.
    package let interruptedWrites: [UUID]

    private init(
        storage: Storage, writer: StoreWriter, interruptedWrites: [UUID], listBytes: Int, lastTick: Int64
    ) {
        self.storage = storage
        ticks = TickCounter(after: lastTick)
        self.listBytes = CacheBytes(listBytes)
        self.writer = writer
        self.interruptedWrites = interruptedWrites
    }

    /// Opens the store (creating it when missing) and brings an older file up to date. The folder
    /// is made (or narrowed to) readable by its owner only.
    ///
    /// Throws `.corrupt` for a damaged, truncated (even to 0 bytes) or foreign file, `.unreadable`
    /// when the file or folder cannot be opened, `.newerSchema` for a file from a newer app
    /// version. The app may then call `reset(_:)` and open again, losing the local data.
    package static func open(
        _ storage: Storage, durability: StoreDurability = .survivesAppCrash
    ) throws(StoreError) -> Store {
        var path: String?
        if case .directory(let folder) = storage {
            path = try StoreFiles.prepare(folder: folder)
        }
        // The file exists now (`prepare` made a new one whole); SQLite must not make an empty one.
        let connection = try SQLiteConnection(path: path, create: path == nil)
        if case .directory(let folder) = storage {
            // One process at a time: the connection takes the file's lock now and keeps it until
            // closed. Exclusive locking also keeps the WAL index in memory (no -shm file) and saves
            // the lock system calls of every transaction.
            try connection.execute(script: "PRAGMA locking_mode = EXCLUSIVE")
            let mode = try connection.query("PRAGMA journal_mode = WAL") { row in row.text(0) }
            guard mode.first??.lowercased() == "wal" else {
                throw .failed(code: 1, detail: "the write-ahead log could not be enabled")
            }
            try connection.execute(script: "BEGIN EXCLUSIVE; COMMIT")
            StoreFiles.removeLeftovers(in: folder)
        }
        connection.setBusyTimeout(milliseconds: 5_000)
        let synchronous = durability == .survivesPowerLoss ? "FULL" : "NORMAL"
        try connection.execute(script: "PRAGMA synchronous = \(synchronous)")
        // Deleted content is overwritten with zeros, so a cleared value is not left in free space.
        try connection.execute(script: "PRAGMA secure_delete = ON")
        // A new database (in memory here; a folder's is made whole by `prepare`) gives the pages
        // evicted lists free back to the file system (see `ListTable.compact()`).
        if path == nil { try connection.execute(script: "PRAGMA auto_vacuum = INCREMENTAL") }
        try StoreSchema.migrate(connection)
        for file in storage.files ?? [] { try StoreFiles.restrict(file.path) }
        let interrupted = try connection.query(
            "SELECT id FROM queue WHERE in_flight = 1 ORDER BY seq"
        ) { row in row.text(0).flatMap(UUID.init(uuidString:)) }
        let bytes = try connection.query("SELECT COALESCE(SUM(bytes), 0) FROM list_usage") { row in
            row.integer(0)
        }
        let lastTick = try TickCounter.largestStored(connection)
        return Store(
            storage: storage, writer: StoreWriter(connection: connection, hooks: CommitHooks()),
            interruptedWrites: interrupted.compactMap { $0 }, listBytes: Int(bytes.first ?? 0),
            lastTick: lastTick)
    }

    /// Opens the store on a background thread, so reading the file and running migrations do not
    /// hold up a thread of the Swift cooperative pool; otherwise the same as `open(_:durability:)`.
    /// The thread is a queue of its own: the global queue has a thread per core, and an open
    /// waited seconds there behind other blocking work (many stores opening at once).
    package static func openInBackground(
        _ storage: Storage, durability: StoreDurability = .survivesAppCrash
    ) async throws(StoreError) -> Store {
        let result = await withCheckedContinuation {
            (opened: CheckedContinuation<Result<Store, StoreError>, Never>) in
            DispatchQueue(label: "OfflineEngine.Store.open", qos: .userInitiated).async {
                do throws(StoreError) {
                    opened.resume(returning: .success(try open(storage, durability: durability)))
                } catch {
                    opened.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Deletes the store's files so the next `open` starts empty; the store must be closed.
    /// Use it when `open` reported a damaged or unreadable store and the user agreed to start over.
    package static func reset(_ storage: Storage) throws(StoreError) {
        try StoreFiles.remove(storage.files ?? [])
    }

    /// The cached lists of the signed-out cache (see ``lists(of:)``).
    package var lists: ListTable { lists(of: Self.partition(of: nil)) }
    /// The cached lists of one user's cache (a ``partition(of:)``).
    package func lists(of user: String) -> ListTable { ListTable(store: self, user: user) }
    /// Change ticks and per-table change marks.
    package var marks: MarkTable { MarkTable(store: self) }
    /// The queued writes.
    package var queue: QueueTable { QueueTable(store: self) }
    /// The writes the server refused.
    package var rejected: RejectedTable { RejectedTable(store: self) }
    /// The writes the server accepted, kept while lists fetched before them are on screen.
    package var replayLog: ReplayLogTable { ReplayLogTable(store: self) }
    /// Whose cache this is, and the stored session.
    package var account: AccountTable { AccountTable(store: self) }

    /// Test-only: fails commits on purpose and counts them (see ``CommitHooks``).
    package var commitHooks: CommitHooks { writer.hooks }

    /// Test-only: records the rows each read returns (see ``ReadHooks``).
    package var readHooks: ReadHooks { writer.readHooks }

    /// How many calls wait for the store's writer (tests use it to interleave with the engine).
    package var waitingCalls: Int { writer.waitingJobs }

    /// Lets pending work finish, then closes the database; later calls throw `.closed`.
    package func close() async {
        await writer.close()
    }

    /// Runs `work` on the writer inside the current batch's transaction and returns its result
    /// once the batch is committed. `atomic` work runs in a savepoint, so a failure undoes all of
    /// it and nothing else. With `checkpoint`, the result comes once the log has also been emptied
    /// into the database file after the commit (see `StoreJob.checkpointsAfterCommit`); with
    /// `vacuum`, once an old file was also rebuilt first (see `StoreJob.vacuumsAfterCommit`).
    /// `oneStatement`: the work changes the store with a single statement, which a lone write
    /// may then run as its own transaction (see ``StoreWriter/runAtOnceIfIdle(oneStatement:_:)``).
    nonisolated(nonsending) func perform<T: Sendable>(
        writes: Bool, atomic: Bool = false, checkpoint: Bool = false, vacuum: Bool = false,
        oneStatement: Bool = false,
        _ work: @escaping @Sendable (SQLiteConnection) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        // An idle writer runs a lone write here and now, with no suspension: the commit is the
        // cost, not handing the caller over and back.
        if writes, !checkpoint, !vacuum,
            let result = writer.runAtOnceIfIdle(
                oneStatement: oneStatement,
                { connection in Self.execute(work, atomic: atomic, on: connection) })
        {
            // The work failed or its commit did: what the index learned may not be on disk.
            if case .failure = result { queueIndex.invalidate() }
            return try result.get()
        }
        let result = await withCheckedContinuation {
            (caller: CheckedContinuation<Result<T, StoreError>, Never>) in
            let job = job(writes: writes, atomic: atomic, checkpoint: checkpoint, vacuum: vacuum, work) {
                caller.resume(returning: $0)
            }
            if !writer.submit(job) { caller.resume(returning: .failure(.closed)) }
        }
        return try result.get()
    }

    /// The job that runs `work` and hands its result (or the commit's error) to `finish`.
    private func job<T: Sendable>(
        writes: Bool, atomic: Bool, checkpoint: Bool = false, vacuum: Bool = false,
        _ work: @escaping @Sendable (SQLiteConnection) throws(StoreError) -> T,
        finish: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) -> StoreJob {
        StoreJob(
            writes: writes, checkpointsAfterCommit: checkpoint || vacuum, vacuumsAfterCommit: vacuum,
            run: { [queueIndex] connection in
                let outcome = Self.execute(work, atomic: atomic, on: connection)
                if case .failure = outcome { queueIndex.invalidate() }
                return { commitError in
                    if commitError != nil { queueIndex.invalidate() }
                    finish(commitError.map { .failure($0) } ?? outcome)
                }
            },
            fail: { error in finish(.failure(error)) })
    }

    /// Runs `work` on the writer like ``perform(writes:atomic:checkpoint:vacuum:_:)`` without
    /// waiting for it: for work whose failure loses nothing (its error is dropped).
    func submit(writes: Bool, _ work: @escaping @Sendable (SQLiteConnection) throws(StoreError) -> Void) {
        let job = StoreJob(
            writes: writes,
            run: { [queueIndex] connection in
                if case .failure = Self.execute(work, atomic: true, on: connection) {
                    queueIndex.invalidate()
                }
                return { commitError in if commitError != nil { queueIndex.invalidate() } }
            },
            fail: { _ in })
        _ = writer.submit(job)
    }

    private static func execute<T>(
        _ work: (SQLiteConnection) throws(StoreError) -> T, atomic: Bool, on connection: SQLiteConnection
    ) -> Result<T, StoreError> {
        guard atomic else {
            do throws(StoreError) { return .success(try work(connection)) } catch { return .failure(error) }
        }
        do throws(StoreError) {
            try connection.run("SAVEPOINT job")
            let value = try work(connection)
            try connection.run("RELEASE job")
            return .success(value)
        } catch {
            if !connection.isAutocommit {
                try? connection.run("ROLLBACK TO job")
                try? connection.run("RELEASE job")
            }
            return .failure(error)
        }
    }
}

extension Store {
    /// The `user` column's value for the cache of `owner` (`''`: the signed-out cache).
    package static func partition(of owner: String?) -> String { owner ?? "" }

    /// The schema column's value for a table's schema (`''` for the default schema).
    static func schemaKey(_ schema: String?) -> String { schema ?? "" }

    /// The id column's value for a write.
    static func idKey(_ id: UUID) -> String { id.lowercasedText }

    /// Decodes a stored write; a blob that cannot be read means the file is damaged.
    static func mutation(from data: Data) throws(StoreError) -> Mutation {
        do {
            return try Mutation(persistedData: data)
        } catch {
            throw .corrupt
        }
    }

    /// Stores the tick counter as far as `tick`, inside the job of a commit that stores that tick
    /// (a change's, or a clear's that nothing else keeps), so that ticks keep growing after a
    /// relaunch (``TickCounter``).
    static func storeTick(_ tick: Int64, _ connection: SQLiteConnection) throws(StoreError) {
        try connection.run(
            """
            INSERT INTO meta (key, value) VALUES ('tick', ?1)
            ON CONFLICT (key) DO UPDATE SET value = MAX(CAST(value AS INTEGER), ?1)
            """,
            .integer(tick))
    }
}
