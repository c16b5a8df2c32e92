import OfflineEngineTesting
import Testing

/// Runs `readers` readers of `sequence` at once (each reads the current value before the first
/// change), sends `1...last` paced in batches of `batch`, then finishes; expects every reader
/// to read the current value `0` first, `last` last, and each value after a smaller one.
func expectCurrentFirstFinalLast<S: AsyncSequence & Sendable>(
    _ sequence: S, readers: Int, last: Int, batch: Int,
    send: @escaping @Sendable (Int) -> Void, finish: @escaping @Sendable () -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws where S.Element == Int {
    let results = try await withTimeout(manyHopsLimit) {
        try await readConcurrently(sequence, readers: readers, readFirst: true) {
            await sendPaced(1...last, batch: batch, send: send)
            finish()
        }
    }
    #expect(results.count == readers, sourceLocation: sourceLocation)
    for received in results {
        #expect(received.first == 0, sourceLocation: sourceLocation)
        #expect(received.last == last, sourceLocation: sourceLocation)
        #expect(
            zip(received, received.dropFirst()).allSatisfy { $0 < $1 }, "out of order: \(received)",
            sourceLocation: sourceLocation)
    }
}
