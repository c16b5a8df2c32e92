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
        AsyncScanSequence(base: self, initial: ()) { _, element in transform(element) }
    }
}

/// An asynchronous sequence that applies a synchronous transform to each element of its base: a
/// `scan` without state, so both operators share one implementation.
///
/// Created by `AsyncSequence.mapSync(_:)`. It has no task and no lock: iteration is a plain struct
/// that forwards to the base iterator with the caller's isolation and the base's typed failure.
public typealias AsyncMapSyncSequence<Base: AsyncSequence, Transformed> = AsyncScanSequence<
    Base, Void, Transformed
>
