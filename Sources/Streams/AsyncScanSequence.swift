extension AsyncSequence {
    /// Folds every element into a running state and emits one output per element.
    ///
    /// The closure receives the state accumulated so far (starting from `initial`) and mutates it
    /// in place, then returns what to emit for this element; it runs synchronously in the
    /// consumer's iteration, so there is no task, no lock and no executor hop per element. Each
    /// iterator starts from its own copy of `initial` (a class-typed state would be shared).
    ///
    /// ```swift
    /// // Running totals: 1, 2, 3 becomes 1, 3, 6.
    /// for await total in numbers.scan(0, { sum, next in sum += next; return sum }) { ... }
    ///
    /// // A composer that keeps what it has built and emits snapshots of it.
    /// combineLatest(tableFacts, refresher.states)
    ///     .scan(Composer(), { composer, input in composer.compose(input) })
    ///     .distinct()
    /// ```
    ///
    /// - Parameters:
    ///   - initial: The state before the first element.
    ///   - next: Updates the state with one element and returns the element to emit.
    /// - Returns: A sequence of the outputs, failing exactly when the base fails.
    @inlinable
    public func scan<State, Output>(
        _ initial: State,
        _ next: @escaping @Sendable (inout State, Element) -> Output
    ) -> AsyncScanSequence<Self, State, Output> {
        AsyncScanSequence(base: self, initial: initial, next: next)
    }
}

/// An asynchronous sequence that threads a state through its base's elements.
///
/// Created by `AsyncSequence.scan(_:_:)`. Iteration is a plain struct holding the base iterator and
/// the current state; it forwards the caller's isolation to the base and keeps the base's typed
/// failure. After the base fails or finishes, the iterator returns `nil` as the base does.
public struct AsyncScanSequence<Base: AsyncSequence, State, Output>: AsyncSequence {
    /// The element type: what the closure returns for each base element.
    public typealias Element = Output
    /// The error type, identical to the base sequence's.
    public typealias Failure = Base.Failure

    @usableFromInline
    let base: Base

    @usableFromInline
    let initial: State

    @usableFromInline
    let next: @Sendable (inout State, Base.Element) -> Output

    @usableFromInline
    init(base: Base, initial: State, next: @escaping @Sendable (inout State, Base.Element) -> Output) {
        self.base = base
        self.initial = initial
        self.next = next
    }

    /// The iterator that owns one running state and updates it with each base element.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline
        var baseIterator: Base.AsyncIterator

        @usableFromInline
        var state: State

        @usableFromInline
        let step: @Sendable (inout State, Base.Element) -> Output

        @usableFromInline
        init(
            baseIterator: Base.AsyncIterator,
            state: State,
            step: @escaping @Sendable (inout State, Base.Element) -> Output
        ) {
            self.baseIterator = baseIterator
            self.state = state
            self.step = step
        }

        /// Returns the output for the next base element, or `nil` when the base is exhausted.
        @inlinable
        public mutating func next() async throws(Failure) -> Output? {
            try await next(isolation: nil)
        }

        /// Returns the next output, running the base iterator in the caller's isolation.
        @inlinable
        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async throws(Failure) -> Output? {
            guard let element = try await baseIterator.next(isolation: actor) else {
                return nil
            }
            return step(&state, element)
        }
    }

    /// Creates an iterator starting from a fresh copy of the initial state.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(baseIterator: base.makeAsyncIterator(), state: initial, step: next)
    }
}

extension AsyncScanSequence: Sendable where Base: Sendable, State: Sendable {}
