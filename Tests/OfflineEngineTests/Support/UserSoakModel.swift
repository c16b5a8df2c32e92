import Foundation

@testable import OfflineEngine

/// One write a soak's writer made, and what its `execute()` call said.
struct SoakWrite: Sendable {
    enum Kind: String, Sendable {
        case insert, update, delete
    }

    enum Outcome: Sendable, Hashable {
        case sent
        case queued
        /// `execute()` threw the server's refusal (a 4xx): every soak write is valid for its
        /// owner, so this is a false rejection.
        case refused(status: Int, code: String?)
        /// `execute()` threw something else (such as an unreadable 2xx): not acknowledged, and
        /// it may or may not have been applied.
        case failed(String)

        /// The call returned: the write must take effect.
        var isAcknowledged: Bool { self == .sent || self == .queued }
    }

    var kind: Kind
    /// The row's key (its id, lowercased).
    var key: String
    /// The user the write was made as.
    var owner: String
    /// The `value` an insert or update sets: a tag unique to the write.
    var value: String?
    var outcome: Outcome
    /// The harness's own check: the engine queued the write as another user than the writer
    /// wrote it for (the owner of every write must be known; see ``UserSoak``).
    var ownerMismatch = false
}

/// What the soak's writes must have left on the server: each row's possible final states,
/// worked out from each writer's writes in its order. An acknowledged write fixes the row's
/// state; a write whose call threw leaves either state possible, and its writer never touches
/// that row again.
struct UserSoakModel {
    enum State: Hashable, CustomStringConvertible {
        case absent
        case present(String)

        var description: String {
            switch self {
            case .absent: "absent"
            case .present(let value): value
            }
        }
    }

    struct Expectation {
        var owner: String
        var possible: Set<State>
        /// The values written to the row, in the writer's order.
        var values: [String]
    }

    /// How the server's rows differ from the model.
    struct Findings {
        /// Rows whose final state no run of the acknowledged writes leaves.
        var lost: [String] = []
        /// Rows the writers never wrote, rows inserted more than once, and writes applied again
        /// after a later write of their row.
        var duplicated: [String] = []
        /// Updates applied again right after themselves (harmless; shown for information).
        var resentInPlace = 0
        /// Writes first applied after a later write of their row.
        var outOfOrder: [String] = []
    }

    private(set) var expectations: [String: Expectation] = [:]

    init(logs: [[SoakWrite]]) {
        for log in logs {
            for write in log { apply(write) }
        }
    }

    private mutating func apply(_ write: SoakWrite) {
        var expectation =
            expectations[write.key] ?? Expectation(owner: write.owner, possible: [.absent], values: [])
        let after: State = write.kind == .delete ? .absent : .present(write.value ?? "")
        if let value = write.value { expectation.values.append(value) }
        expectation.possible = write.outcome.isAcknowledged ? [after] : expectation.possible.union([after])
        expectations[write.key] = expectation
    }

    func compare(
        with report: RowSecurityServer.Report, valueColumn: String = "value", ownerColumn: String = "owner"
    ) -> Findings {
        var findings = Findings()
        for (key, expectation) in expectations.sorted(by: { $0.key < $1.key }) {
            let row = report.rows[key]
            let state: State = row.map { .present(RowSecurityServer.text($0[valueColumn])) } ?? .absent
            if !expectation.possible.contains(state) {
                let expected = expectation.possible.map(\.description).sorted().joined(separator: " or ")
                findings.lost.append(
                    "\(key) (\(expectation.owner)): expected \(expected), server has \(state)")
            } else if let row, RowSecurityServer.text(row[ownerColumn]) != expectation.owner {
                findings.lost.append(
                    "\(key): owned by \(expectation.owner), server says \(RowSecurityServer.text(row[ownerColumn]))"
                )
            }
            check(history: report.history[key] ?? [], of: key, expectation, valueColumn, &findings)
        }
        for key in report.rows.keys.sorted() where expectations[key] == nil {
            findings.duplicated.append("\(key): on the server, never written")
        }
        return findings
    }

    private func check(
        history: [RowSecurityServer.Change], of key: String, _ expectation: Expectation,
        _ valueColumn: String,
        _ findings: inout Findings
    ) {
        let insertions = history.count { if case .inserted = $0 { true } else { false } }
        if insertions > 1 { findings.duplicated.append("\(key): inserted \(insertions) times") }
        let order = Dictionary(expectation.values.enumerated().map { ($1, $0) }) { first, _ in first }
        var highest = -1
        var seen = Set<String>()
        for change in history {
            let written: Row
            let isUpdate: Bool
            switch change {
            case .inserted(let row): (written, isUpdate) = (row, false)
            case .updated(let row): (written, isUpdate) = (row, true)
            case .deleted: continue
            }
            let value = RowSecurityServer.text(written[valueColumn])
            let index = order[value] ?? -1
            if seen.contains(value) {
                if index < highest {
                    findings.duplicated.append("\(key): \(value) applied again after a later write")
                } else if isUpdate {
                    findings.resentInPlace += 1
                }
            } else if index < highest {
                findings.outOfOrder.append("\(key): \(value) applied after a later write")
            }
            seen.insert(value)
            highest = max(highest, index)
        }
    }
}
