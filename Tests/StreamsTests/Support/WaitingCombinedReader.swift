import Streams

/// `numbersAndWords()` and a reader of their combination (as `combine` makes it) that has read
/// the first element and waits for the next, returned once it watches the numbers.
func waitingCombinedReader<S: AsyncSequence & Sendable>(
    _ combine: (StateBroadcast<Int, Never>, StateBroadcast<String, Never>) -> S
) async throws -> (
    numbers: StateBroadcast<Int, Never>, words: StateBroadcast<String, Never>,
    reading: Task<S.Element?, Never>
) where S.Element: Sendable, S.Failure == Never {
    let (numbers, words) = numbersAndWords()
    let reading = secondElement(of: combine(numbers, words))
    try await waitUntilWatched(numbers)
    return (numbers, words, reading)
}
