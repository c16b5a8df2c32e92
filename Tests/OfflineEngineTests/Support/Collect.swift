@testable import OfflineEngine

/// Collects a stream's values into an awaitable log, in a task the caller cancels.
func collect<S: AsyncSequence & Sendable>(_ stream: S, into log: AsyncLog<S.Element>) -> Task<Void, Never>
where S.Element: Sendable {
    Task {
        do {
            for try await value in stream { log.append(value) }
        } catch {}
    }
}
