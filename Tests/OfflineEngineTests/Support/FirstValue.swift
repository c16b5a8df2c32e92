import OfflineEngineTesting

@testable import OfflineEngine

/// Reads a stream until a value meets `condition`, failing (not hanging) after `seconds`.
func firstValue<S: AsyncSequence & Sendable>(
    of stream: S, within seconds: Double = 30, where condition: @escaping @Sendable (S.Element) -> Bool
) async throws -> S.Element where S.Element: Sendable {
    try await withTimeout(seconds) {
        for try await value in stream where condition(value) { return value }
        throw TimedOut(seconds: seconds)
    }
}
