/// Merges two sequences into one that emits elements from either as soon as they are available.
///
/// Demand driven: nothing is pulled before the first `next()`; see `AsyncMergeSequence`.
public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
    _ base1: Base1,
    _ base2: Base2
) -> AsyncMergeSequence<Base1.Element> where Base1.Element == Base2.Element, Base1.Element: Sendable {
    AsyncMergeSequence(upstreams: [MergeStorage.drive(base1), MergeStorage.drive(base2)])
}

/// Merges three sequences into one that emits elements from any of them as they become available.
///
/// Demand driven: nothing is pulled before the first `next()`; see `AsyncMergeSequence`.
public func merge<
    Base1: AsyncSequence & Sendable,
    Base2: AsyncSequence & Sendable,
    Base3: AsyncSequence & Sendable
>(
    _ base1: Base1,
    _ base2: Base2,
    _ base3: Base3
) -> AsyncMergeSequence<Base1.Element>
where Base1.Element == Base2.Element, Base2.Element == Base3.Element, Base1.Element: Sendable {
    AsyncMergeSequence(
        upstreams: [MergeStorage.drive(base1), MergeStorage.drive(base2), MergeStorage.drive(base3)]
    )
}

/// Merges any number of same-typed sequences into one; an empty array gives an empty sequence.
///
/// Demand driven: nothing is pulled before the first `next()`; see `AsyncMergeSequence`.
public func merge<Base: AsyncSequence & Sendable>(
    _ bases: [Base]
) -> AsyncMergeSequence<Base.Element> where Base.Element: Sendable {
    AsyncMergeSequence(upstreams: bases.map { MergeStorage.drive($0) })
}

/// Merges any number of same-typed sequences given as variadic arguments.
///
/// Demand driven: nothing is pulled before the first `next()`; see `AsyncMergeSequence`.
public func merge<Base: AsyncSequence & Sendable>(
    _ base1: Base,
    _ base2: Base,
    _ base3: Base,
    _ base4: Base,
    _ more: Base...
) -> AsyncMergeSequence<Base.Element> where Base.Element: Sendable {
    merge([base1, base2, base3, base4] + more)
}

/// An asynchronous sequence that interleaves the elements of several upstream sequences.
///
/// Each iteration lazily starts one task on its first `next()`; the task holds a task group with
/// one child per upstream. A child pulls an element only when the consumer asks for one and the
/// buffer is empty, so at most one element per upstream is ever buffered. The sequence finishes when
/// every upstream has finished. The first upstream error cancels the other upstreams and is thrown
/// after the elements already buffered. Cancelling the consuming task, or dropping the iterator,
/// cancels the upstream task: iteration then ends with `nil` and no task is left running.
/// Concurrent `next()` calls on copies of one iterator are a programming error.
public struct AsyncMergeSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// Any upstream error is rethrown, so the failure type is untyped.
    public typealias Failure = any Error

    private let upstreams: [MergeStorage<Element>.Upstream]

    init(upstreams: [MergeStorage<Element>.Upstream]) {
        self.upstreams = upstreams
    }

    /// The iterator of one merge iteration; copies share the same upstream task.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let handle: IterationHandle

        init(storage: MergeStorage<Element>) {
            handle = IterationHandle(storage: storage)
        }

        /// Returns the next element from whichever upstream produced it, or `nil` when all finished.
        public mutating func next() async throws -> Element? {
            try await handle.storage.next(isolation: nil)
        }

        /// Returns the next element, suspending in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            try await handle.storage.next(isolation: actor)
        }
    }

    /// Creates an independent iteration; upstream work starts on its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(storage: MergeStorage(upstreams: upstreams))
    }

    /// Cancels the upstream task when the last copy of an iterator is dropped.
    private final class IterationHandle: Sendable {
        let storage: MergeStorage<Element>

        init(storage: MergeStorage<Element>) {
            self.storage = storage
        }

        deinit {
            storage.iteratorDeinitialized()
        }
    }
}
