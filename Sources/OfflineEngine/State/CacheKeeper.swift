import Foundation
import Streams
import Synchronization

/// Keeps the cached lists within the budget of ``CachePolicy``: runs eviction passes as a child
/// of the engine's background work, so no caller's task waits for one: one at launch, and one
/// each time a write of the cache took the lists over the budget (writes made during a pass
/// are seen by the next). A pass removes lists in the store, then tells the state to forget
/// them (``CachedLists/forgetEvicted(_:in:)``).
///
/// Passes are counted: ``settled()`` returns once every pass asked for before it was called has
/// run, so ``OfflineClient/cacheSize()`` reports the bytes after the eviction that was due.
final class CacheKeeper: Sendable {
    let policy: CachePolicy
    private let store: Store
    /// The keys of the lists being read now (live reads, one-shot reads): never removed.
    private let keeping: @Sendable () -> Set<String>
    /// The wall time, against which lists' times to live are compared.
    let now: @Sendable () -> Date
    private let due = Signal()
    /// Passes asked for (the launch pass is the first).
    private let asked = Mutex(1)
    /// Passes run: the value of `asked` when the last finished pass started.
    private let ran = StateBroadcast<Int, Never>(0)

    init(
        policy: CachePolicy, store: Store, now: @escaping @Sendable () -> Date,
        keeping: @escaping @Sendable () -> Set<String>
    ) {
        self.policy = policy
        self.store = store
        self.now = now
        self.keeping = keeping
    }

    /// The keys of the lists being read now, which no pass removes.
    var keptKeys: Set<String> { keeping() }

    /// Asks for a pass if the lists are over the budget; called after each write of the cache.
    func wrote() {
        guard store.listBytes.value > policy.budget else { return }
        asked.withLock { $0 += 1 }
        due.fire()
    }

    /// Runs the launch pass (which also shrinks the files when it removed lists or the file
    /// holds much free space), then a pass each time one is asked for, until cancelled.
    func run(_ state: EngineState) async {
        let wakes = due.subscribe()
        var upTo = asked.withLock { $0 }
        try? await pass(state, compacting: true)
        ran.send(upTo)
        for await _ in wakes {
            upTo = asked.withLock { $0 }
            if store.listBytes.value > policy.budget { try? await pass(state, compacting: false) }
            ran.send(upTo)
        }
    }

    /// Removes the lists `scope` names (pinned ones stay) and, with `compacting`, gives the
    /// space back to the file system; returns how many lists were removed.
    @discardableResult
    func evict(_ scope: EvictionScope, _ state: EngineState, compacting: Bool) async throws -> Int {
        // A table's lists are the cache's now; a fit and `.all` reach every user's.
        let lists = await state.lists
        let removed = try await lists.evict(scope, compacting: compacting, keeping: keeping)
        if !removed.isEmpty { try await CachedLists.forgetEvicted(removed, in: state) }
        return removed.count
    }

    /// Returns once every pass asked for before the call has run (or the client closed).
    func settled() async {
        let wanted = asked.withLock { $0 }
        for await done in ran.values() where done >= wanted { return }
    }

    /// Ends ``run(_:)`` and every ``settled()`` wait.
    func finish() {
        due.finish()
        ran.finish()
    }

    /// One pass over the budget: expired lists, then the least recently read, down to the target
    /// (only expired lists when under the budget). At launch it also shrinks the files when it
    /// must remove lists to fit, or when a quarter of the file is free pages.
    private func pass(_ state: EngineState, compacting: Bool) async throws {
        let over = store.listBytes.value > policy.budget
        var compact = compacting && over
        if compacting, !over { compact = try await store.lists.mostlyFree() }
        let now = now()
        // Under the budget with nothing expired and nothing to give back, there is nothing to do:
        // no write transaction (the launch pass would otherwise cost every launch a commit).
        if !over, !compact, try await !store.lists.anyExpired(by: now) { return }
        let scope = EvictionScope.fit(bytes: over ? policy.evictionTarget : .max, now: now)
        try await evict(scope, state, compacting: compact)
    }
}
