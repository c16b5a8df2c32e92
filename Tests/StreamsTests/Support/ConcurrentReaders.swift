/// Runs `readers` readers of `sequence` at once and returns what each read to the end. Each
/// makes its iterator (and, with `readFirst`, reads one element) before `drive` runs, so every
/// reader is in place before the first change.
func readConcurrently<S: AsyncSequence & Sendable>(
    _ sequence: S, readers: Int, readFirst: Bool, drive: @Sendable () async -> Void
) async throws -> [[S.Element]] where S.Element: Sendable {
    let ready = Countdown(readers)
    return try await withThrowingTaskGroup(of: [S.Element].self) { group in
        for _ in 0..<readers {
            group.addTask {
                var received: [S.Element] = []
                var iterator = sequence.makeAsyncIterator()
                if readFirst, let first = try await iterator.next() {
                    received.append(first)
                }
                ready.arrive()
                while let value = try await iterator.next() {
                    received.append(value)
                }
                return received
            }
        }
        await ready.wait()
        await drive()
        var results: [[S.Element]] = []
        for try await received in group {
            results.append(received)
        }
        return results
    }
}
