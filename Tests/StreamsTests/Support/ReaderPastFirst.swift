/// An iterator of `sequence` that has read its first element (for a state, its current value),
/// in the caller's isolation: a reader for tests of what a change gives next.
func readerPastFirst<S: AsyncSequence>(
    _ sequence: S, isolation: isolated (any Actor)? = #isolation
) async -> S.AsyncIterator where S.Failure == Never {
    var reader = sequence.makeAsyncIterator()
    _ = await reader.next(isolation: isolation)
    return reader
}
