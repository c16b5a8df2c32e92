import Synchronization

/// Combines the newest values of two state holders into tuples, without a task.
///
/// The first element is both holders' current values; after that, an element comes whenever
/// either holder changes, carrying both newest values, so a slow reader skips to the newest
/// combination. The reader waits on both holders directly: a change costs one wake of the reader,
/// where `combineLatest` over their `values()` runs a task per side. It finishes once both
/// holders have finished; a cancelled reader returns `nil`.
///
/// `settleYields` is how many times a woken reader yields before it reads (none by default):
/// the work already waiting then runs first, so a burst of changes made by callers running at
/// once (writers queueing writes, say) is read as one combination instead of one per change.
/// On an idle system a yield costs microseconds; under load each lets every waiting task run.
///
/// ```swift
/// for await (facts, refresh) in combineLatest(tableFacts, refresher.states, settleYields: 64) {
///     render(compose(facts, refresh))
/// }
/// ```
public func combineLatest<First: Sendable, Second: Sendable>(
    _ first: StateBroadcast<First, Never>,
    _ second: StateBroadcast<Second, Never>,
    settleYields: Int = 0
) -> AsyncCombineLatestStatesSequence<First, Second> {
    AsyncCombineLatestStatesSequence(
        first: first, second: second, firstMatters: nil, settleYields: settleYields)
}

/// Combines the newest values of two state holders, as `combineLatest(_:_:)` does, but a waiting
/// reader is woken by a change of `first` only when `firstMatters` says the new value may matter
/// to it; when something else wakes it, it reads the newest values of both as always.
///
/// `firstMatters` runs in the caller that changes `first`, under its lock: keep it quick, and
/// never call back into `first`. Use it when most changes of a widely shared holder concern few
/// of its readers (a write to one of a table's lists, say), so the others are not woken for it.
///
/// ```swift
/// combineLatest(tableFacts, refresher.states, firstMatters: { facts in mayReach(facts) })
/// ```
public func combineLatest<First: Sendable, Second: Sendable>(
    _ first: StateBroadcast<First, Never>,
    _ second: StateBroadcast<Second, Never>,
    firstMatters: @escaping @Sendable (First) -> Bool,
    settleYields: Int = 0
) -> AsyncCombineLatestStatesSequence<First, Second> {
    AsyncCombineLatestStatesSequence(
        first: first, second: second, firstMatters: firstMatters, settleYields: settleYields)
}

/// The newest values of two state holders, as tuples; see
/// `combineLatest(_:_:)` for state holders.
public struct AsyncCombineLatestStatesSequence<First: Sendable, Second: Sendable>: AsyncSequence, Sendable {
    /// Both holders' newest values.
    public typealias Element = (First, Second)
    /// State holders used here never fail.
    public typealias Failure = Never

    @usableFromInline let sources: Sources

    init(
        first: StateBroadcast<First, Never>, second: StateBroadcast<Second, Never>,
        firstMatters: (@Sendable (First) -> Bool)?, settleYields: Int
    ) {
        sources = Sources(
            first: first, second: second, firstMatters: firstMatters, settleYields: settleYields)
    }

    /// A new reader; its first element is both holders' values when it asks.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: Reader(sources: sources))
    }

    /// One reader of both holders.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let reader: Reader

        @usableFromInline
        init(reader: Reader) {
            self.reader = reader
        }

        /// The newest combination not yet seen, or `nil` once both holders finished or the task
        /// was cancelled.
        @inlinable
        public mutating func next() async -> Element? {
            await reader.next(isolation: nil)
        }

        /// The same, waiting (and settling) in the caller's isolation, so an actor-isolated
        /// reader pays no hop per combination.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await reader.next(isolation: actor)
        }
    }

    /// What every reader of the sequence reads, and how: both holders, the filter of the first
    /// one's changes, and the yields before a read.
    @usableFromInline
    struct Sources: Sendable {
        @usableFromInline let first: StateBroadcast<First, Never>
        @usableFromInline let second: StateBroadcast<Second, Never>
        @usableFromInline let firstMatters: (@Sendable (First) -> Bool)?
        @usableFromInline let settleYields: Int
    }

    /// One reader's place in both holders; it stops watching them when it goes.
    @usableFromInline
    final class Reader: Sendable {
        @usableFromInline let sources: Sources
        @usableFromInline let id: UInt64
        @usableFromInline let waker = StateWaker()
        /// The versions last delivered (`nil`: nothing yet).
        @usableFromInline let seen = Mutex<(UInt64, UInt64)?>(nil)

        @usableFromInline
        init(sources: Sources) {
            self.sources = sources
            id = readerIDs.add(1, ordering: .relaxed).newValue
        }

        @inlinable
        func next(isolation actor: isolated (any Actor)?) async -> Element? {
            let (first, second) = (sources.first, sources.second)
            while !Task.isCancelled {
                let a = first.current()
                let b = second.current()
                let last = seen.withLock { $0 }
                if last == nil || last?.0 != a.version || last?.1 != b.version {
                    seen.withLock { $0 = (a.version, b.version) }
                    return (a.value, b.value)
                }
                if a.finished && b.finished { return nil }
                await waker.wait {
                    let changed =
                        first.watch(id, after: a.version, waker: waker, when: sources.firstMatters)
                        || second.watch(id, after: b.version, waker: waker)
                    if changed { waker.fire() }
                }
                // Lets the work already waiting run before the reader reads, as many yields as
                // the caller chose: a burst of changes is then read as one combination, and
                // whatever reads the combinations downstream is woken once for the burst.
                for _ in 0..<sources.settleYields { await Task.yield() }
            }
            return nil
        }

        deinit {
            sources.first.unwatch(id)
            sources.second.unwatch(id)
        }
    }
}

/// Ids of combined readers, unique among all holders.
private let readerIDs = Atomic<UInt64>(0)
