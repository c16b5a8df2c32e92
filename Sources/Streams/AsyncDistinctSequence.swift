extension AsyncSequence where Element: Equatable {
    /// Drops elements equal to the element just before them, so consumers only see changes.
    ///
    /// The first element always passes. Only consecutive duplicates are removed: `1, 1, 2, 1`
    /// becomes `1, 2, 1`.
    ///
    /// - Returns: A sequence without consecutive duplicates, failing exactly when the base fails.
    @inlinable
    public func distinct() -> AsyncDistinctSequence<Self> {
        AsyncDistinctBySequence(base: self, areEquivalent: areEqual)
    }
}

/// An asynchronous sequence that removes consecutive equal elements from its base: `distinct(by:)`
/// with `==`, so both share one implementation.
///
/// Created by `distinct()`. It has no task and no lock, forwards the caller's isolation to the base
/// iterator and keeps the base's typed failure.
public typealias AsyncDistinctSequence<Base: AsyncSequence> = AsyncDistinctBySequence<Base>
where Base.Element: Equatable

/// `==` as a function `distinct()` can hand to `distinct(by:)`.
@inlinable
func areEqual<Value: Equatable>(_ first: Value, _ second: Value) -> Bool {
    first == second
}
