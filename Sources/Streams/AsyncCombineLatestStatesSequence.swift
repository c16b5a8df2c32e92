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
    AsyncCombineLatestStatesSequence(first: first, second: second)
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

    init(first: StateBroadcast<First, Never>, second: StateBroadcast<Second, Never>) {
        self.first = first
        self.second = second
    }

    /// A new reader; its first element is both holders' values when it asks.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: Reader(first: first, second: second))
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
        @usableFromInline let id: UInt64
        @usableFromInline let waker = StateWaker()
        /// The versions last delivered (`nil`: nothing yet).
        @usableFromInline let seen = Mutex<(UInt64, UInt64)?>(nil)

        @usableFromInline
        init(first: StateBroadcast<First, Never>, second: StateBroadcast<Second, Never>) {
            self.first = first
            self.second = second
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
                        first.watch(id, after: a.version, waker: waker)
                        || second.watch(id, after: b.version, waker: waker)
                    if changed { waker.fire() }
                }
                await settle()
            }
            return nil
        }

        /// Lets the work already waiting run before the reader reads: a burst of changes made
        /// by callers running at once (writers queueing writes, say) is then read as one
        /// combination instead of one per change. A few yields: on an idle system they cost
        /// microseconds; under load they let a wake collect what the burst adds meanwhile.
        @usableFromInline
        func settle() async {
            for _ in 0..<8 { await Task.yield() }
        }

        deinit {
            first.unwatch(id)
            second.unwatch(id)
        }
    }
}

/// Ids of combined readers, unique among all holders.
private let readerIDs = Atomic<UInt64>(0)
