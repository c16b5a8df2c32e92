import Synchronization

/// Combines the newest values of two state holders into tuples, without a task.
///
/// The first element is both holders' current values; after that, an element comes whenever
/// either holder changes, carrying both newest values, so a slow reader skips to the newest
/// combination. The reader waits on both holders directly: a change costs one wake of the reader,
/// where `combineLatest` over their `values()` runs a task per side. It finishes once both
/// holders have finished; a cancelled reader returns `nil`.
///
/// ```swift
/// for await (facts, refresh) in combineLatest(tableFacts, refresher.states) {
///     render(compose(facts, refresh))
/// }
/// ```
public func combineLatest<First: Sendable, Second: Sendable>(
    _ first: StateBroadcast<First, Never>,
    _ second: StateBroadcast<Second, Never>
) -> AsyncCombineLatestStatesSequence<First, Second> {
    AsyncCombineLatestStatesSequence(first: first, second: second, firstMatters: nil)
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
    firstMatters: @escaping @Sendable (First) -> Bool
) -> AsyncCombineLatestStatesSequence<First, Second> {
    AsyncCombineLatestStatesSequence(first: first, second: second, firstMatters: firstMatters)
}

/// The newest values of two state holders, as tuples; see
/// `combineLatest(_:_:)` for state holders.
public struct AsyncCombineLatestStatesSequence<First: Sendable, Second: Sendable>: AsyncSequence, Sendable {
    /// Both holders' newest values.
    public typealias Element = (First, Second)
    /// State holders used here never fail.
    public typealias Failure = Never

    @usableFromInline let first: StateBroadcast<First, Never>
    @usableFromInline let second: StateBroadcast<Second, Never>
    @usableFromInline let firstMatters: (@Sendable (First) -> Bool)?

    init(
        first: StateBroadcast<First, Never>, second: StateBroadcast<Second, Never>,
        firstMatters: (@Sendable (First) -> Bool)?
    ) {
        self.first = first
        self.second = second
        self.firstMatters = firstMatters
    }

    /// A new reader; its first element is both holders' values when it asks.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: Reader(first: first, second: second, firstMatters: firstMatters))
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
            await reader.next()
        }

        /// The same, waiting in the caller's isolation.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await reader.next()
        }
    }

    /// One reader's place in both holders; it stops watching them when it goes.
    @usableFromInline
    final class Reader: Sendable {
        @usableFromInline let first: StateBroadcast<First, Never>
        @usableFromInline let second: StateBroadcast<Second, Never>
        @usableFromInline let firstMatters: (@Sendable (First) -> Bool)?
        @usableFromInline let id: UInt64
        @usableFromInline let waker = StateWaker()
        /// The versions last delivered (`nil`: nothing yet).
        @usableFromInline let seen = Mutex<(UInt64, UInt64)?>(nil)

        @usableFromInline
        init(
            first: StateBroadcast<First, Never>, second: StateBroadcast<Second, Never>,
            firstMatters: (@Sendable (First) -> Bool)?
        ) {
            self.first = first
            self.second = second
            self.firstMatters = firstMatters
            id = readerIDs.add(1, ordering: .relaxed).newValue
        }

        @inlinable
        func next() async -> Element? {
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
                        first.watch(id, after: a.version, waker: waker, when: firstMatters)
                        || second.watch(id, after: b.version, waker: waker)
                    if changed { waker.fire() }
                }
                await settle()
            }
            return nil
        }

        /// Lets the work already waiting run before the reader reads: a burst of changes made
        /// by callers running at once (writers queueing writes, say) is then read as one
        /// combination instead of one per change, and whatever reads the combinations downstream
        /// is woken once for the burst. `settleYields` yields: on an idle system they cost tens of
        /// microseconds; under load each lets every task already waiting run, so a wake collects
        /// what the burst adds meanwhile (see the README's performance notes for the figures).
        @usableFromInline
        func settle() async {
            for _ in 0..<settleYields { await Task.yield() }
        }

        deinit {
            first.unwatch(id)
            second.unwatch(id)
        }
    }
}

/// How many times a woken combined reader yields before it reads (see `Reader.settle()`).
@usableFromInline let settleYields = 64

/// Ids of combined readers, unique among all holders.
private let readerIDs = Atomic<UInt64>(0)
