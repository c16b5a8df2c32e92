/// Starts a task reading `sequence` to its end and returns it once `count` elements arrived: a
/// reader caught mid-sequence, for tests of what stops it (cancelling it, closing its source).
func reader<S: AsyncSequence & Sendable>(
    of sequence: S, after count: Int
) async -> Task<[S.Element], any Error> where S.Element: Sendable {
    let arrived = Countdown(count)
    let reader = Task {
        var received: [S.Element] = []
        for try await element in sequence {
            received.append(element)
            arrived.arrive()
        }
        return received
    }
    await arrived.wait()
    return reader
}
