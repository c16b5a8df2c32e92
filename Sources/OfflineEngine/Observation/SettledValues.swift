import Streams

/// How the observable models hand a burst of values to observers as its newest: a child task
/// reads the source into a keep-newest holder, and the caller's actor takes the holder's newest
/// value only after a **settle** (a drive of ``SettlePacer``, shared by the models that wake
/// together, yielding on the global executor as a live read does before it composes) repeated
/// until the value stops changing (at most ``maxSettles`` rounds), so values that come in a
/// burst, however long, are skipped for the last.
///
/// ```swift
/// try await SettledValues.follow(client.syncStatus) { status in show(status) }  // on the caller's actor
/// ```
///
/// Leaving (the caller's task cancelled) cancels the child, which ends the source's reader.
enum SettledValues {
    /// How many settles a wake takes at most while the value keeps changing: a source that never
    /// rests still reaches observers.
    static let maxSettles = 64

    /// Calls `apply` in the caller's isolation with the newest value of `source` after each
    /// settle, until `source` ends (or throws, rethrown here) or the task is cancelled.
    static func follow<Value: Sendable & Equatable>(
        _ source: AsyncThrowingStream<Value, any Error>,
        isolation: isolated (any Actor)? = #isolation,
        _ apply: (Value) async -> Void
    ) async throws {
        let newest = StateBroadcast<Value?, any Error>(nil)
        // The loop below stays in the caller's isolation (a task group's body would not be
        // guaranteed to); the reader is a child task all the same, cancelled and awaited on exit.
        async let reading: Void = read(source, into: newest)
        for try await arrived in newest.values() where arrived != nil {
            // Settles again while the burst goes on (the value changed during the last settle).
            var seen = newest.value
            for _ in 0..<maxSettles {
                await SettlePacer.shared.settle()
                let now = newest.value
                if now == seen { break }
                seen = now
            }
            if let latest = newest.value { await apply(latest) }
        }
        await reading
    }

    /// Sends each value of `source` into `newest`, and finishes it as `source` ends.
    @concurrent
    private static func read<Value>(
        _ source: AsyncThrowingStream<Value, any Error>, into newest: StateBroadcast<Value?, any Error>
    ) async {
        do {
            for try await value in source { newest.send(value) }
            newest.finish()
        } catch {
            newest.finish(throwing: error)
        }
    }
}
