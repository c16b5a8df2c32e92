/// A task that takes the first element of `sequence` and then waits for the next one: a reader
/// that is waiting for a change, for tests of what wakes it.
func secondElement<S: AsyncSequence & Sendable>(of sequence: S) -> Task<S.Element?, Never>
where S.Element: Sendable, S.Failure == Never {
    Task {
        var reader = sequence.makeAsyncIterator()
        _ = await reader.next(isolation: nil)
        return await reader.next(isolation: nil)
    }
}
