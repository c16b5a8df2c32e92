import Testing

/// Reads `iterator` to its end, in the caller's isolation, and expects `elements` and then the
/// typed error `failure`. The iterator's `Failure` must be `TestError`: a caller compiles only
/// where the error is rethrown typed.
func expectElements<I: AsyncIteratorProtocol>(
    _ elements: [I.Element], thenFailure failure: TestError, reading iterator: inout I,
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation
) async where I.Failure == TestError, I.Element: Equatable {
    var received: [I.Element] = []
    do throws(TestError) {
        while let value = try await iterator.next(isolation: isolation) {
            received.append(value)
        }
        Issue.record("expected an error", sourceLocation: sourceLocation)
    } catch {
        #expect(error == failure, sourceLocation: sourceLocation)
    }
    #expect(received == elements, sourceLocation: sourceLocation)
}

/// The same, reading a new iterator of `sequence`.
func expectElements<S: AsyncSequence>(
    _ elements: [S.Element], thenFailure failure: TestError, reading sequence: S,
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation
) async where S.Failure == TestError, S.Element: Equatable {
    var iterator = sequence.makeAsyncIterator()
    await expectElements(
        elements, thenFailure: failure, reading: &iterator, isolation: isolation,
        sourceLocation: sourceLocation)
}
