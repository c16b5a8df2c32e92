/// Merges two sequences into one that emits elements from either as soon as they are available.
///
/// Demand driven: nothing is pulled before the first `next()`; see `AsyncMergeSequence`.
@inlinable
public func merge<Element: Sendable>(
    _ base1: some AsyncSequence<Element, some Error> & Sendable,
    _ base2: some AsyncSequence<Element, some Error> & Sendable
) -> AsyncMergeSequence<Element> {
    AsyncMergeSequence(upstreams: [MergeStorage.drive(base1), MergeStorage.drive(base2)])
}

/// Merges three sequences into one that emits elements from any of them as they become available.
///
/// Demand driven: nothing is pulled before the first `next()`; see `AsyncMergeSequence`.
@inlinable
public func merge<Element: Sendable>(
    _ base1: some AsyncSequence<Element, some Error> & Sendable,
    _ base2: some AsyncSequence<Element, some Error> & Sendable,
    _ base3: some AsyncSequence<Element, some Error> & Sendable
) -> AsyncMergeSequence<Element> {
    AsyncMergeSequence(
        upstreams: [MergeStorage.drive(base1), MergeStorage.drive(base2), MergeStorage.drive(base3)]
    )
}

/// Merges any number of same-typed sequences into one; an empty array gives an empty sequence.
///
/// Demand driven: nothing is pulled before the first `next()`; see `AsyncMergeSequence`.
@inlinable
public func merge<Base: AsyncSequence & Sendable>(
    _ bases: [Base]
) -> AsyncMergeSequence<Base.Element> where Base.Element: Sendable {
    AsyncMergeSequence(upstreams: bases.map { MergeStorage.drive($0) })
}

/// Merges any number of same-typed sequences given as variadic arguments.
///
/// Demand driven: nothing is pulled before the first `next()`; see `AsyncMergeSequence`.
@inlinable
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
/// one child per upstream. A child hands its element straight to a waiting consumer or keeps it
/// in its one slot, then waits: it pulls again only once the consumer has that element and asks
/// for another, so at most one element per upstream is pulled and not yet consumed, and nothing
/// is pulled for a consumer that stopped asking. The sequence finishes when
/// every upstream has finished. The first upstream error cancels the other upstreams and is thrown
/// after the elements already buffered. Cancelling the consuming task cancels the upstream task,
/// and the `next()` that ends the iteration (with `nil` or the error) returns only once that task
/// has ended, as a task group would; dropping the iterator cancels the task without waiting.
/// Concurrent `next()` calls on copies of one iterator are a programming error.
public struct AsyncMergeSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// Any upstream error is rethrown, so the failure type is untyped.
    public typealias Failure = any Error

    @usableFromInline let upstreams: [MergeStorage<Element>.Upstream]

    @inlinable
    init(upstreams: [MergeStorage<Element>.Upstream]) {
        self.upstreams = upstreams
    }

    /// The iterator of one merge iteration; copies share the same upstream task.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let handle: IterationHandle<MergeStorage<Element>>

        @inlinable
        init(storage: MergeStorage<Element>) {
            handle = IterationHandle(storage: storage)
        }

        /// Returns the next element from whichever upstream produced it, or `nil` when all finished.
        @inlinable
        public mutating func next() async throws -> Element? {
            try await handle.storage.next(isolation: nil)
        }

        /// Returns the next element, suspending in the caller's isolation.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            try await handle.storage.next(isolation: actor)
        }
    }

    /// Creates an independent iteration; upstream work starts on its first `next()`.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(storage: MergeStorage(upstreams: upstreams))
    }

}
