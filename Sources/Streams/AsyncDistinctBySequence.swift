extension AsyncSequence {
    /// Drops elements the predicate considers equivalent to the element just before them.
    ///
    /// The first element always passes; each later element is compared with the last element
    /// that was emitted, and dropped when `areEquivalent(last, element)` is `true`.
    ///
    /// - Parameter areEquivalent: Returns `true` when the second element should be dropped.
    /// - Returns: A sequence without consecutive equivalent elements.
    @inlinable
    public func distinct(
        by areEquivalent: @escaping @Sendable (Element, Element) -> Bool
    ) -> AsyncDistinctBySequence<Self> {
        AsyncDistinctBySequence(base: self, areEquivalent: areEquivalent)
    }
}

/// An asynchronous sequence that removes consecutive elements a predicate calls equivalent.
///
/// Created by `distinct(by:)`. It has no task and no lock, forwards the caller's isolation to the base
/// iterator and keeps the base's typed failure.
public struct AsyncDistinctBySequence<Base: AsyncSequence>: AsyncSequence {
    /// The element type, identical to the base sequence's.
    public typealias Element = Base.Element
    /// The error type, identical to the base sequence's.
    public typealias Failure = Base.Failure

    @usableFromInline
    let base: Base

    @usableFromInline
    let areEquivalent: @Sendable (Base.Element, Base.Element) -> Bool

    @usableFromInline
    init(base: Base, areEquivalent: @escaping @Sendable (Base.Element, Base.Element) -> Bool) {
        self.base = base
        self.areEquivalent = areEquivalent
    }

    /// The iterator that remembers the last emitted element and skips equivalent successors.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline
        var baseIterator: Base.AsyncIterator

        @usableFromInline
        let areEquivalent: @Sendable (Base.Element, Base.Element) -> Bool

        @usableFromInline
        var last: Base.Element?

        @usableFromInline
        init(
            baseIterator: Base.AsyncIterator,
            areEquivalent: @escaping @Sendable (Base.Element, Base.Element) -> Bool
        ) {
            self.baseIterator = baseIterator
            self.areEquivalent = areEquivalent
            self.last = nil
        }

        /// Returns the next element not equivalent to the previous one, or `nil` at the end.
        @inlinable
        public mutating func next() async throws(Failure) -> Base.Element? {
            try await next(isolation: nil)
        }

        /// Returns the next non-equivalent element, running the base iterator in the caller's isolation.
        @inlinable
        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async throws(Failure) -> Base.Element? {
            while let element = try await baseIterator.next(isolation: actor) {
                if let previous = last, areEquivalent(previous, element) {
                    continue
                }
                last = element
                return element
            }
            return nil
        }
    }

    /// Creates an iterator that skips consecutive equivalent elements.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(baseIterator: base.makeAsyncIterator(), areEquivalent: areEquivalent)
    }
}

extension AsyncDistinctBySequence: Sendable where Base: Sendable {}
