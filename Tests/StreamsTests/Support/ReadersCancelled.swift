import OfflineEngineTesting
import Testing

/// Once `subscribed` has seen every reader in place, expects `readerCount()` to count them all,
/// cancels them and waits for them to end, then expects it to count none.
func expectReadersCancelled(
    _ readers: [Task<Void, Never>], once subscribed: Countdown, readerCount: @escaping @Sendable () -> Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    try await withTimeout {
        await subscribed.wait()
        #expect(readerCount() == readers.count, sourceLocation: sourceLocation)
        await cancelAndWait(readers)
    }
    #expect(readerCount() == 0, sourceLocation: sourceLocation)
}
