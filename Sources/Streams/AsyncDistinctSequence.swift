extension AsyncSequence where Element: Equatable {
    /// Drops elements equal to the element just before them, so consumers only see changes.
    ///
    /// The first element always passes. Only consecutive duplicates are removed: `1, 1, 2, 1`
    /// becomes `1, 2, 1`.
    ///
    /// - Returns: A sequence without consecutive duplicates, failing exactly when the base fails.
    @inlinable
    public func distinct() -> AsyncDistinctSequence<Self> {
        AsyncDistinctSequence(base: self)
    }
}

/// An asynchronous sequence that removes consecutive equal elements from its base.
///
/// Created by `distinct()`. It has no task and no lock, forwards the caller's isolation to the base
/// iterator and keeps the base's typed failure.
public struct AsyncDistinctSequence<Base: AsyncSequence>: AsyncSequence where Base.Element: Equatable {
    /// The element type, identical to the base sequence's.
    public typealias Element = Base.Element
    /// The error type, identical to the base sequence's.
    public typealias Failure = Base.Failure

    @usableFromInline
    let base: Base

    @usableFromInline
    init(base: Base) {
        self.base = base
    }

    /// The iterator that remembers the last emitted element and skips equal successors.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline
        var baseIterator: Base.AsyncIterator

        @usableFromInline
        var last: Base.Element?

        @usableFromInline
        init(baseIterator: Base.AsyncIterator) {
            self.baseIterator = baseIterator
            self.last = nil
        }

        /// Returns the next element that differs from the previous one, or `nil` at the end.
        @inlinable
        public mutating func next() async throws(Failure) -> Base.Element? {
            try await next(isolation: nil)
        }

        /// Returns the next differing element, running the base iterator in the caller's isolation.
        @inlinable
        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async throws(Failure) -> Base.Element? {
            while let element = try await baseIterator.next(isolation: actor) {
                if let previous = last, previous == element {
                    continue
                }
                last = element
                return element
            }
            return nil
        }
    }

    /// Creates an iterator that skips consecutive equal elements.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(baseIterator: base.makeAsyncIterator())
    }
}

extension AsyncDistinctSequence: Sendable where Base: Sendable {}
