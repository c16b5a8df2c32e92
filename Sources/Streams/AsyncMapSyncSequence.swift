extension AsyncSequence {
    /// Transforms every element with a synchronous closure, without an executor hop per element.
    ///
    /// The stdlib `map` takes an `async` transform and therefore cannot promise that the consumer's
    /// isolation is kept; this operator's iterator forwards the caller's isolation to the base
    /// iterator, so a `@MainActor` consumer of a main-actor-friendly base pays no hop per element.
    /// The distinct name avoids overload ambiguity with the stdlib's `map`.
    ///
    /// - Parameter transform: A synchronous function applied to each element.
    /// - Returns: A sequence of the transformed elements, failing exactly when the base fails.
    @inlinable
    public func mapSync<Transformed>(
        _ transform: @escaping @Sendable (Element) -> Transformed
    ) -> AsyncMapSyncSequence<Self, Transformed> {
        AsyncMapSyncSequence(base: self, transform: transform)
    }
}

/// An asynchronous sequence that applies a synchronous transform to each element of its base.
///
/// Created by `AsyncSequence.mapSync(_:)`. It has no task and no lock: iteration is a plain struct
/// that forwards to the base iterator with the caller's isolation and the base's typed failure.
public struct AsyncMapSyncSequence<Base: AsyncSequence, Transformed>: AsyncSequence {
    /// The transformed element type.
    public typealias Element = Transformed
    /// The error type, identical to the base sequence's.
    public typealias Failure = Base.Failure

    @usableFromInline
    let base: Base

    @usableFromInline
    let transform: @Sendable (Base.Element) -> Transformed

    @usableFromInline
    init(base: Base, transform: @escaping @Sendable (Base.Element) -> Transformed) {
        self.base = base
        self.transform = transform
    }

    /// The iterator that pulls from the base iterator and transforms each element in place.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline
        var baseIterator: Base.AsyncIterator

        @usableFromInline
        let transform: @Sendable (Base.Element) -> Transformed

        @usableFromInline
        init(baseIterator: Base.AsyncIterator, transform: @escaping @Sendable (Base.Element) -> Transformed) {
            self.baseIterator = baseIterator
            self.transform = transform
        }

        /// Returns the next transformed element, or `nil` when the base is exhausted.
        @inlinable
        public mutating func next() async throws(Failure) -> Transformed? {
            try await next(isolation: nil)
        }

        /// Returns the next transformed element, running the base iterator in the caller's isolation.
        @inlinable
        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async throws(Failure) -> Transformed? {
            guard let element = try await baseIterator.next(isolation: actor) else {
                return nil
            }
            return transform(element)
        }
    }

    /// Creates an iterator over the transformed elements.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(baseIterator: base.makeAsyncIterator(), transform: transform)
    }
}

extension AsyncMapSyncSequence: Sendable where Base: Sendable {}
