import Foundation

@testable import OfflineEngine

/// The counts of a ``UserSoak`` run, the acceptance line, and the details behind them.
struct UserSoakTally: Sendable {
    var writes: Int = 0
    /// Rows whose final state on the server no run of the acknowledged writes leaves.
    var lost: Int = 0
    /// Rows on the server no writer wrote, rows inserted twice, writes applied again after a
    /// later write of their row.
    var duplicated: Int = 0
    /// Write requests whose token's user was not the owner of a row they touched.
    var wrongUser: Int = 0
    /// Rejected writes (as `rejectedMutations()` lists them, for either user) and calls that
    /// threw a server's refusal: every write in the soak is valid for its owner.
    var falseRejections: Int = 0
    /// Writes applied after a later write of their row (out of their writer's order).
    var reordered: Int = 0
    /// How many times the network went down or came back.
    var flaps: Int = 0
    /// Writes still queued after the drain.
    var leftQueued: Int = 0
    /// Writes the engine queued as another user than the harness wrote them for: a fault of
    /// the harness, which would make the other counts meaningless.
    var ownerMismatches: Int = 0
    /// Every line to print: the acceptance line first, then the details.
    var lines: [String] = []

    /// The flapping soak's line: `soak: <writes> writes, <flaps> flaps, <lost> lost, ...`.
    var flappingLine: String {
        "soak: \(writes) writes, \(flaps) flaps, \(lost) lost, \(duplicated) duplicated, \(reordered) reordered"
    }

    /// The counts a users' soak must leave at zero, by name, where they are not: nothing lost,
    /// duplicated, sent as the wrong user, falsely rejected or left queued, and no write whose
    /// owner the harness did not know (that would make the other counts meaningless).
    var usersSoakFaults: [String: Int] {
        [
            "lost": lost, "duplicated": duplicated, "wrongUser": wrongUser,
            "falseRejections": falseRejections,
            "leftQueued": leftQueued, "ownerMismatches": ownerMismatches,
        ].filter { $0.value != 0 }
    }

    var acceptanceLine: String {
        "soak-users: \(writes) writes, \(lost) lost, \(duplicated) duplicated, \(wrongUser) wrong-user, "
            + "\(falseRejections) false-rejections"
    }

    init(
        settings: UserSoak.Settings, logs: [[SoakWrite]], report: RowSecurityServer.Report,
        rejected: [RejectedMutation], leftQueued left: [Mutation], moves: UserSoak.Moves, drained: Bool,
        timing: (writing: Duration, total: Duration)
    ) {
        let writes = logs.flatMap { $0 }
        let findings = UserSoakModel(logs: logs).compare(with: report)
        let refusedAtOnce = writes.filter {
            if case .refused = $0.outcome { true } else { false }
        }
        self.writes = writes.count
        lost = findings.lost.count
        duplicated = findings.duplicated.count
        reordered = findings.outOfOrder.count
        flaps = moves.flaps
        wrongUser = report.wrongUserRequests
        falseRejections = rejected.count + refusedAtOnce.count
        leftQueued = left.count
        ownerMismatches = writes.count(where: \.ownerMismatch)

        var failures: [String: Int] = [:]
        for write in writes {
            switch write.outcome {
            case .sent, .queued: continue
            case .refused(let status, let code): failures["refused \(status) \(code ?? "-")", default: 0] += 1
            case .failed(let kind): failures[kind, default: 0] += 1
            }
        }
        let sent = writes.count { $0.outcome == .sent }
        let queued = writes.count { $0.outcome == .queued }
        let threw = writes.count - sent - queued
        let faults = RowSecurityServer.Fault.allCases.map { "\($0.rawValue) \(report.faults[$0] ?? 0)" }
        lines.append(acceptanceLine)
        lines.append(
            "soak-users detail: seed \(settings.seed), \(settings.writers) writers, \(sent) sent, \(queued) queued, "
                + "\(threw) threw (\(Self.list(failures))); \(moves.switches) switches, \(moves.outages) outages, "
                + "\(moves.backlogTimeouts) backlog waits timed out; "
                + "\(report.writeRequests) write requests, faults: \(faults.joined(separator: ", ")); "
                + "\(findings.resentInPlace) updates re-applied in place; \(ownerMismatches) owner mismatches; "
                + "queue \(drained ? "drained" : "NOT drained, \(left.count) left"); "
                + "writing \(Self.seconds(timing.writing)), total \(Self.seconds(timing.total))")
        Self.samples("lost", findings.lost, into: &lines)
        Self.samples("duplicated", findings.duplicated, into: &lines)
        Self.samples("wrong-user", report.wrongUserSamples, total: report.wrongUserRequests, into: &lines)
        Self.samples(
            "rejected",
            rejected.map {
                "\($0.operation.rawValue) \($0.rowIDs.joined(separator: ",")) of \($0.ownerID ?? "nobody"): "
                    + "\($0.error.status) \($0.error.code ?? "-") \($0.error.message)"
            }, into: &lines)
        Self.samples(
            "refused at once", refusedAtOnce.map { "\($0.kind.rawValue) \($0.key) of \($0.owner)" },
            into: &lines)
        Self.samples("out of order", findings.outOfOrder, into: &lines)
        Self.samples(
            "left queued",
            left.map { "\($0.operation.rawValue) of \($0.ownerID ?? "nobody"), \($0.attempts) attempts" },
            into: &lines)
    }

    private static func samples(
        _ name: String, _ items: [String], total: Int? = nil, into lines: inout [String]
    ) {
        guard !items.isEmpty else { return }
        lines.append("  \(name) (\(total ?? items.count)), e.g.:")
        for item in items.prefix(5) { lines.append("    \(item)") }
    }

    private static func list(_ counts: [String: Int]) -> String {
        counts.isEmpty
            ? "none"
            : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.1f s", value)
    }
}
