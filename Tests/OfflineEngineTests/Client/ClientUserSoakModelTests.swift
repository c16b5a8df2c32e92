import Foundation
import Testing

@testable import OfflineEngine

/// The soak's model checked on its own: a zero in the soak means nothing unless the model
/// counts what it claims to count.
@Suite("Soak model", .timeLimit(.minutes(10)))
struct ClientUserSoakModelTests {
    private func write(
        _ kind: SoakWrite.Kind, _ key: String, _ value: String? = nil, _ outcome: SoakWrite.Outcome = .sent
    ) -> SoakWrite {
        SoakWrite(kind: kind, key: key, owner: "A", value: value, outcome: outcome)
    }

    private func row(_ key: String, _ value: String) -> Row {
        ["id": .string(key), "owner": "A", "value": .string(value)]
    }

    @Test(
        "the model counts missing, stale and resurrected rows as lost, and unknown rows, double inserts and stale re-applications as duplicated"
    )
    func countsWhatItClaims() {
        let log = [
            write(.insert, "k1", "v1"), write(.update, "k1", "v2", .queued),
            write(.insert, "k2", "v3"), write(.delete, "k2"),
            write(.insert, "k3", "v4", .failed("UnexpectedResponseError")),
            write(.insert, "k4", "v5"),
            write(.insert, "k5", "v6"), write(.update, "k5", "v7"),
            write(.insert, "k6", "v8"), write(.update, "k6", "v9"), write(.update, "k6", "v10"),
            write(.insert, "k7", "v11"),
        ]
        let report = RowSecurityServer.Report(
            rows: [
                "k1": row("k1", "v1"), "k2": row("k2", "v3"), "k5": row("k5", "v7"), "k6": row("k6", "v9"),
                "k7": row("k7", "v11"), "kx": row("kx", "v0"),
            ],
            history: [
                "k1": [.inserted(row("k1", "v1"))],
                "k2": [.inserted(row("k2", "v3"))],
                "k5": [.inserted(row("k5", "v6")), .updated(["value": "v7"]), .updated(["value": "v7"])],
                "k6": [
                    .inserted(row("k6", "v8")), .updated(["value": "v9"]), .updated(["value": "v10"]),
                    .updated(["value": "v9"]),
                ],
                "k7": [.inserted(row("k7", "v11")), .deleted, .inserted(row("k7", "v11"))],
                "kx": [.inserted(row("kx", "v0"))],
            ],
            writeRequests: 0, wrongUserRequests: 0, wrongUserSamples: [], faults: [:])
        let findings = UserSoakModel(logs: [log]).compare(with: report)
        #expect(findings.lost.map { String($0.prefix(2)) } == ["k1", "k2", "k4", "k6"])
        #expect(findings.duplicated.map { String($0.prefix(2)) }.sorted() == ["k6", "k7", "kx"])
        #expect(findings.resentInPlace == 1)
    }

    @Test("a write whose call threw may or may not have been applied")
    func thrownWritesAllowBoth() {
        let log = [
            write(.insert, "k1", "v1"), write(.update, "k1", "v2", .failed("x")),
            write(.insert, "k2", "v3"), write(.delete, "k2", nil, .refused(status: 403, code: "42501")),
        ]
        let applied = RowSecurityServer.Report(
            rows: ["k1": row("k1", "v2")], history: [:], writeRequests: 0, wrongUserRequests: 0,
            wrongUserSamples: [], faults: [:])
        let notApplied = RowSecurityServer.Report(
            rows: ["k1": row("k1", "v1"), "k2": row("k2", "v3")], history: [:], writeRequests: 0,
            wrongUserRequests: 0, wrongUserSamples: [], faults: [:])
        let model = UserSoakModel(logs: [log])
        #expect(model.compare(with: applied).lost.isEmpty)
        #expect(model.compare(with: notApplied).lost.isEmpty)
    }
}
