import Testing

@testable import OfflineEngine

/// The built-in failure classes, case by case (`FailureClass.standard`).
@Suite("Failure classes", .timeLimit(.minutes(10)))
struct FailureClassTests {
    @Test(
        "each status and code falls in its class",
        arguments: [
            (401, nil, FailureClass.waitForSession), (401, "42501", .waitForSession),
            (400, "PGRST301", .waitForSession),
            (401, "PGRST303", .waitForSession),
            (409, "40001", .transient), (400, "40P01", .transient), (503, "08006", .transient),
            (500, "53300", .transient), (400, "57014", .transient), (408, nil, .transient),
            (429, nil, .transient),
            (500, nil, .transient), (503, "PGRST002", .transient), (520, nil, .transient),
            (302, nil, .transient),
            (400, "22P02", .permanent), (409, "23505", .permanent), (400, "23514", .permanent),
            (403, "42501", .permanent), (404, "42P01", .permanent), (400, "PGRST100", .permanent),
            (406, "PGRST116", .permanent), (404, nil, .permanent), (422, nil, .permanent),
            (500, "23503", .permanent),
        ] as [(Int, String?, FailureClass)])
    func standard(status: Int, code: String?, expected: FailureClass) {
        #expect(FailureClass.standard(status: status, code: code) == expected)
    }

    @Test("the replay follows the app's classes for PostgREST's refusals, and its own for the rest")
    func replayUsesTheClassifier() {
        let write = Mutation(table: "tasks", operation: .insert, rows: [["id": 1]])
        let refusal = PostgrestError(status: 500, code: "P0001", message: "try later")
        #expect(
            ReplayDecision.after(refusal, mutation: write, wasAttemptedBefore: false)
                == .retryLater(after: nil))
        let permanent = ReplayDecision.after(
            refusal, mutation: write, wasAttemptedBefore: false, classify: { _, _ in .permanent })
        #expect(permanent == .rejected)
        let offline = ReplayDecision.after(
            TransportError(kind: .offline), mutation: write, wasAttemptedBefore: false,
            classify: { _, _ in .permanent })
        #expect(offline == .retryLater(after: nil))
        // A lost answer's duplicate key is checked, whatever the classes say.
        let duplicate = PostgrestError(status: 409, code: "23505", message: "duplicate")
        #expect(
            ReplayDecision.after(duplicate, mutation: write, wasAttemptedBefore: true) == .verifyLostInsert)
    }
}
