import Foundation
import Testing

@testable import OfflineEngine

/// A stalled refresh's cause is safe to show: no URL, filter value, token or row data.
@Suite("Refresh failure", .timeLimit(.minutes(10)))
struct RefreshFailureTests {
    private struct LeakyError: Error, CustomStringConvertible {
        var description: String {
            "GET https://abc.supabase.co/rest/v1/tasks?title=eq.secret failed, token eyJhbGciOi"
        }
    }

    @Test("its description names no URL, filter value or token, and keeps the error for logs")
    func descriptionIsSafe() {
        let failure = RefreshFailure(LeakyError())
        for text in [failure.description, failure.localizedDescription, "\(failure)"] {
            #expect(!text.contains("https://"))
            #expect(!text.contains("secret"))
            #expect(!text.contains("eyJ"))
            #expect(!text.isEmpty)
        }
        #expect(failure.underlying is LeakyError)
    }

    @Test("a summary in the engine's own words is used as given")
    func customSummary() {
        let failure = RefreshFailure(LeakyError(), summary: "The server is unavailable (503).")
        #expect(failure.description == "The server is unavailable (503).")
    }

    @Test("two failures are equal only when they are the same failure")
    func identity() {
        let first = RefreshFailure(TestFailure(name: "same"))
        let second = RefreshFailure(TestFailure(name: "same"))
        #expect(first != second)
        #expect(RefreshState.stalled(first) != .stalled(second))
        #expect(Set([first, first, second]).count == 2)
    }

    @Test("a stalled refresh's cause is described by the engine's summarizer, never the raw error")
    func stallCauseUsesSummary() async throws {
        let harness = RefreshHarness(
            Array(repeating: .fail(TestFailure(name: "https://abc.supabase.co/rest/v1/tasks")), count: 4),
            summarize: { _ in "The server did not answer." }
        )
        harness.start()
        for attempt in 1...3 {
            try await harness.attempts(attempt)
            try await harness.elapseWait()
        }
        let states = try await harness.states(2)
        #expect(states.last?.cause?.description == "The server did not answer.")
        #expect(states.last.map { "\($0)" }?.contains("supabase") == false)
        await harness.stop()
    }
}
