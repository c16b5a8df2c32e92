/// Combines the latest elements of two sequences into tuples.
///
/// See `AsyncCombineLatestSequence` for when elements are produced and when the sequence ends.
public func combineLatest<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
    _ base1: Base1,
    _ base2: Base2
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element)>
where Base1.Element: Sendable, Base2.Element: Sendable {
    AsyncCombineLatestSequence(
        upstreams: [CombineLatestStorage.drive(base1), CombineLatestStorage.drive(base2)]
    ) { values in
        guard let first = values[0] as? Base1.Element, let second = values[1] as? Base2.Element else {
            preconditionFailure("CombineLatest: a side produced a value of an unexpected type")
        }
        return (first, second)
    }
}

/// Combines the latest elements of three sequences into tuples.
///
/// See `AsyncCombineLatestSequence` for when elements are produced and when the sequence ends.
public func combineLatest<
    Base1: AsyncSequence & Sendable,
    Base2: AsyncSequence & Sendable,
    Base3: AsyncSequence & Sendable
>(
    _ base1: Base1,
    _ base2: Base2,
    _ base3: Base3
) -> AsyncCombineLatestSequence<(Base1.Element, Base2.Element, Base3.Element)>
where Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable {
    AsyncCombineLatestSequence(
        upstreams: [
            CombineLatestStorage.drive(base1),
            CombineLatestStorage.drive(base2),
            CombineLatestStorage.drive(base3),
        ]
    ) { values in
        guard let first = values[0] as? Base1.Element,
            let second = values[1] as? Base2.Element,
            let third = values[2] as? Base3.Element
        else {
            preconditionFailure("CombineLatest: a side produced a value of an unexpected type")
        }
        return (first, second, third)
    }
}

/// Combines the latest elements of any number of same-typed sequences into arrays, in input order.
///
/// An empty input gives a sequence that finishes immediately. See `AsyncCombineLatestSequence`.
public func combineLatest<Base: AsyncSequence & Sendable>(
    _ bases: [Base]
) -> AsyncCombineLatestSequence<[Base.Element]> where Base.Element: Sendable {
    AsyncCombineLatestSequence(upstreams: bases.map { CombineLatestStorage.drive($0) }) { values in
        values.map { value in
            guard let element = value as? Base.Element else {
                preconditionFailure("CombineLatest: a side produced a value of an unexpected type")
            }
            return element
        }
    }
}

/// An asynchronous sequence of combinations of the latest element of each upstream sequence.
///
/// Nothing is produced until every side has produced once; from then on, each new element from any
/// side produces a combination with the others' latest elements. If the consumer is slower than the
/// upstreams, elements that arrive from several sides between two `next()` calls are folded into one
/// combination (every element appears in at least one combination). The sequence finishes at once,
/// cancelling the other sides, when a side finishes before producing anything; otherwise it finishes
/// when every side has finished. The first error cancels the other sides and is thrown.
///
/// Each iteration lazily starts one task holding a task group with one child per side; a child pulls
/// only when the consumer is waiting and that side's last element was emitted. Cancelling the
/// consuming task or dropping the iterator cancels that task: iteration ends with `nil`.
public struct AsyncCombineLatestSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// Any upstream error is rethrown, so the failure type is untyped.
    public typealias Failure = any Error

    private let upstreams: [CombineLatestStorage.Upstream]
    private let combine: @Sendable ([any Sendable]) -> Element

    init(
        upstreams: [CombineLatestStorage.Upstream],
        combine: @escaping @Sendable ([any Sendable]) -> Element
    ) {
        self.upstreams = upstreams
        self.combine = combine
    }

    /// The iterator of one combineLatest iteration; copies share the same upstream task.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let handle: IterationHandle<CombineLatestStorage>
        private let combine: @Sendable ([any Sendable]) -> Element

        init(storage: CombineLatestStorage, combine: @escaping @Sendable ([any Sendable]) -> Element) {
            self.handle = IterationHandle(storage: storage)
            self.combine = combine
        }

        /// Returns the next combination, or `nil` when the sequence has finished.
        public mutating func next() async throws -> Element? {
            try await handle.storage.next(isolation: nil).map(combine)
        }

        /// Returns the next combination, suspending in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            try await handle.storage.next(isolation: actor).map(combine)
        }
    }

    /// Creates an independent iteration; upstream work starts on its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(storage: CombineLatestStorage(upstreams: upstreams), combine: combine)
    }

}
