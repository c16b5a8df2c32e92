import ConvergeSoak
import Foundation
import OfflineEngine

/// The converge soak's checks, from the clients' logs and dumps, the server's rows and history
/// and the write requests' tokens:
///
/// - **lost**: a row whose final state no run of its writes leaves, the acknowledged ones
///   (`execute()` returned: sent or queued) all applied, each in doubt (its call did not return)
///   applied or not (see `UserSoakModel` in the unit soaks, whose rules these are);
/// - **duplicated**: a row inserted twice or never written, a write applied again after a later
///   write of its row (applied again right after itself, an update is harmless and counted apart);
/// - **reordered**: a write first applied after a later write of its device and user;
/// - **wrong-user**: a write request whose token's user does not own a row or value it names,
///   a change made with another user's token, a row owned by another user than its writer;
/// - **diverged**: a device's list not equal to the server's answer for its query;
/// - **stalled**: a device that, once healing, went more than `healLimit` seconds without
///   progress (a write settled, a list answered), or never showed its lists.
struct ConvergeCheck {
    var writes = 0
    var lost = 0
    var duplicated = 0
    var reordered = 0
    var reappliedInPlace = 0
    var wrongUser = 0
    var diverged = 0
    var stalled = 0
    var rejected = 0
    var threw = 0
    var outcomes: [String: Int] = [:]
    /// A few of each kind of finding, to print.
    var samples: [String] = []

    /// A device's list as the checker expects it: its key, and the server's answer.
    struct Answer {
        var device: String
        var user: String
        var name: String
        var rows: [Row]
    }

    init(
        logs: [String: ConvergeLog.Contents], notes: [[String?]], history: [[String?]],
        requests: [ConvergeGateway.WriteRequest], dumps: [String: ConvergeDump], answers: [Answer],
        healLimit: Double
    ) {
        let all = logs.values.flatMap(\.writes)
        writes = all.count
        for write in all { outcomes[Self.name(write.outcome), default: 0] += 1 }
        threw = all.count { if case .threw = $0.outcome { true } else { false } }
        checkFinalStates(all, notes: notes)
        checkHistory(all, history: history)
        checkTokens(all, requests: requests)
        checkLists(dumps: dumps, answers: answers, healLimit: healLimit)
    }

    var line: String {
        "\(writes) writes, \(lost) lost, \(duplicated) duplicated, \(wrongUser) wrong-user, \(diverged) diverged, "
            + "\(stalled) stalled"
    }

    private static func name(_ outcome: ConvergeWrite.Outcome) -> String {
        switch outcome {
        case .begun: "in doubt"
        case .sent: "sent"
        case .queued: "queued"
        case .threw(let error): "threw \(error)"
        }
    }

    private mutating func note(_ finding: String) {
        if samples.count < 20 { samples.append(finding) }
    }

    /// Each row as its writes leave it, against the server's row.
    private mutating func checkFinalStates(_ all: [ConvergeWrite], notes: [[String?]]) {
        let server = Dictionary(notes.map { ($0[0] ?? "", (owner: $0[1], value: $0[2])) }) { first, _ in first
        }
        var possible: [String: (owner: String, states: Set<String?>)] = [:]
        for write in all {
            var row = possible[write.id] ?? (write.owner, [nil])
            let after = write.kind == .delete ? nil : write.tag
            row.states = write.outcome.isAcknowledged ? [after] : row.states.union([after])
            possible[write.id] = row
        }
        for (id, row) in possible.sorted(by: { $0.key < $1.key }) {
            let held = server[id]
            if !row.states.contains(held.map(\.value) ?? nil) {
                lost += 1
                let expected = row.states.map { $0 ?? "absent" }.sorted().joined(separator: " or ")
                note(
                    "lost: \(id) of \(row.owner): expected \(expected), server has \(held?.value ?? "absent")"
                )
            } else if let held, held.owner != row.owner {
                wrongUser += 1
                note("wrong-user: \(id) written by \(row.owner), owned by \(held.owner ?? "nobody")")
            }
        }
        for id in server.keys.sorted() where possible[id] == nil {
            duplicated += 1
            note("duplicated: \(id) on the server, never written")
        }
    }

    /// The order changes were applied in: each row's writes in order and once, each device's
    /// writes of a user in its order, each change made with its row owner's token.
    private mutating func checkHistory(_ all: [ConvergeWrite], history: [[String?]]) {
        let byTag = Dictionary(all.compactMap { write in write.tag.map { ($0, write) } }) { first, _ in first
        }
        var order: [String: [String: Int]] = [:]
        for write in all {
            if let tag = write.tag { order[write.id, default: [:]][tag] = order[write.id]?.count ?? 0 }
        }
        var highest: [String: Int] = [:]
        var seen = Set<String>()
        var inserts: [String: Int] = [:]
        var lastOfWriter: [String: Int] = [:]
        for change in history {
            let (id, op, value, owner, by) = (
                change[0] ?? "", change[1] ?? "", change[2], change[3], change[4]
            )
            if by != owner {
                wrongUser += 1
                note(
                    "wrong-user: \(op) of \(id) (owner \(owner ?? "-")) made with a token of \(by ?? "nobody")"
                )
            }
            if op == "INSERT" {
                inserts[id, default: 0] += 1
                if inserts[id] == 2 {
                    duplicated += 1
                    note("duplicated: \(id) inserted twice")
                }
            }
            guard let value else { continue }
            guard let write = byTag[value] else {
                duplicated += 1
                note("duplicated: \(value) applied to \(id), never written")
                continue
            }
            let index = order[id]?[value] ?? -1
            let top = highest[id] ?? -1
            if seen.contains(value) {
                if index < top {
                    duplicated += 1
                    note("duplicated: \(value) applied again to \(id) after a later write")
                } else {
                    reappliedInPlace += 1
                }
                continue
            }
            seen.insert(value)
            highest[id] = max(top, index)
            let writer = value.split(separator: "-").dropLast().joined(separator: "-") + " " + write.owner
            if index < top || write.n < (lastOfWriter[writer] ?? -1) {
                reordered += 1
                note("reordered: \(value) (\(op) of \(id)) applied after a later write of \(writer)")
            }
            lastOfWriter[writer] = max(lastOfWriter[writer] ?? -1, write.n)
        }
    }

    /// Every write request carried the token of the owner of each row and value it names.
    private mutating func checkTokens(_ all: [ConvergeWrite], requests: [ConvergeGateway.WriteRequest]) {
        var owners: [String: String] = [:]
        for write in all {
            owners[write.id] = write.owner
            if let tag = write.tag { owners[tag] = write.owner }
        }
        for request in requests {
            guard let word = request.words.first(where: { owners[$0].map { $0 != request.user } ?? false })
            else { continue }
            wrongUser += 1
            note(
                "wrong-user: a request naming \(word) of \(owners[word] ?? "-") sent as \(request.user ?? "nobody")"
            )
        }
    }

    /// Every device's lists against the server's answers, and how long each took to heal.
    private mutating func checkLists(dumps: [String: ConvergeDump], answers: [Answer], healLimit: Double) {
        for (device, dump) in dumps.sorted(by: { $0.key < $1.key }) {
            rejected += dump.rejected.count
            for rejection in dump.rejected { note("rejected on \(device): \(rejection)") }
            if dump.stallSeconds > healLimit {
                stalled += 1
                note(
                    "stalled: \(device) went \(dump.stallSeconds) s without progress in its heal "
                        + "(\(dump.drainSeconds) s to drain, \(dump.healSeconds) s in all)")
            }
        }
        for answer in answers {
            let shown = dumps[answer.device]?.lists.first { $0.user == answer.user && $0.name == answer.name }
            guard shown?.rows != answer.rows else { continue }
            diverged += 1
            note(
                "diverged: \(answer.device)'s \(answer.name) of \(answer.user): "
                    + "\(shown.map { "\($0.rows.count) rows" } ?? "not shown"), the server \(answer.rows.count)"
            )
        }
        for device in Set(answers.map(\.device)) where dumps[device] == nil {
            stalled += 1
            note("stalled: \(device) never showed its lists")
        }
    }
}
