import Foundation
import OfflineEngine
import OfflineEngineTesting
import Synchronization

extension ScenarioRun {
    /// Checks an expectation, waiting (under the limit) for the ones about what comes later.
    func check(_ step: Step, on client: OfflineClient) async throws {
        switch step {
        case .see(let name, let shows):
            let list = try named(name)
            do {
                _ = try await list.first(within: Self.wait, where: shows.matches)
            } catch is TimedOut {
                let requests = transport.log.values.map { "\($0.method) \($0.url.path)" }
                throw Failure(
                    description:
                        "\(name) never showed \(shows); last: \(Shows.describe(list.log.values.last, column: shows.column)); "
                        + "requests: \(requests); sleepers: \(clock.sleeperCount); holds: \(transport.holds.values)"
                )
            }
        case .sawFirst(let name, let shows):
            let list = try named(name)
            let first = try await guarded("first snapshot") { try await list.log.values(atLeast: 1)[0] }
            guard shows.matches(first) else {
                throw Failure(
                    description:
                        "\(name) first showed \(Shows.describe(first, column: shows.column)), not \(shows)")
            }
        case .neverSaw(let name, let shows):
            let seen = try named(name).log.values
            if let hit = seen.first(where: shows.matches) {
                throw Failure(description: "\(name) showed \(Shows.describe(hit, column: shows.column))")
            }
        case .sent(let match, let count):
            try await sent(match, count: count, exactly: true)
        case .sentAtLeast(let match, let count):
            try await sent(match, count: count, exactly: false)
        case .queue(let count):
            try await until("the queue holding \(count)", client.pendingMutationCount()) { $0 == count }
        case .pending(let table, let ids):
            let stream = client.pendingMutations(table: table).map { $0.flatMap(\.rowIDs) }
            try await until("pending ids \(ids)", stream) { $0 == ids }
        case .rejected(let codes):
            let stream = client.rejectedMutations().map { $0.map(\.error.code) }
            try await until("rejected codes \(codes)", stream) { $0 == codes }
        case .server(let table, let ids):
            try await serverHolds(table, ids: ids)
        case .sleeps(let durations):
            guard clock.sleepLog.starts(with: durations) else {
                throw Failure(description: "the clock's sleeps were \(clock.sleepLog), not \(durations)")
            }
        case .session(let user):
            try await until("the session of \(user ?? "nobody")", client.session) { state in
                switch state {
                case .restoring: false
                case .signedOut: user == nil
                case .signedIn(let session), .waitingForToken(let session): session.userID == user
                }
            }
        case .connectivity(let wanted):
            try await until("connectivity \(wanted)", client.connectivity) { $0 == wanted }
        case .ended(let name, let throwing):
            let list = try named(name)
            let ending: String?
            do {
                ending = try await withTimeout(Self.wait) { try await list.endings.values(atLeast: 1)[0] }
            } catch is TimedOut {
                throw Failure(description: "\(name) never ended")
            }
            switch (ending, throwing) {
            case (nil, nil): break
            case (let error?, let wanted?) where error.contains(wanted): break
            default:
                throw Failure(
                    description:
                        "\(name) ended \(ending.map { "throwing \($0)" } ?? "with no error"), not "
                        + (throwing.map { "throwing \($0)" } ?? "with no error"))
            }
        default:
            throw Failure(description: "unhandled step \(step)")
        }
    }

    private func named(_ name: String) throws -> LiveList {
        guard let list = lists[name]?.list else { throw Failure(description: "no live read named \(name)") }
        return list
    }

    private func sent(_ match: Req, count: Int, exactly: Bool) async throws {
        let log = transport.log
        let matching: @Sendable () -> [HTTPRequest] = { log.values.filter(match.matches) }
        do {
            try await withTimeout(Self.wait) {
                var seen = 0
                while matching().count < count {
                    seen = try await log.values(atLeast: seen + 1).count
                }
            }
        } catch is TimedOut {}
        let requests = matching()
        guard requests.count == count || (!exactly && requests.count > count) else {
            let all = log.values.map { "\($0.method) \($0.url.path)" }
            throw Failure(description: "\(requests.count) requests \(match), not \(count); all: \(all)")
        }
    }

    private func serverHolds(_ table: String, ids: [Int]) async throws {
        let server = server
        let wanted = ids.map(String.init)
        let current: @Sendable () async -> [String] = {
            await server.rows(of: table).map { $0["id"]?.rawValue ?? "-" }
        }
        do {
            try await eventually(within: Self.wait) { await current() == wanted }
        } catch is TimedOut {
            throw Failure(description: "the server's \(table) holds \(await current()), not \(wanted)")
        }
    }

    /// Reads `stream` until a value meets `condition`; on timeout, says the last value seen.
    private func until<S: AsyncSequence & Sendable>(
        _ what: String, _ stream: S, _ condition: @escaping @Sendable (S.Element) -> Bool
    ) async throws where S.Element: Sendable {
        let last = Mutex<String>("nothing")
        do {
            _ = try await withTimeout(Self.wait) {
                for try await value in stream {
                    last.withLock { $0 = "\(value)" }
                    if condition(value) { return true }
                }
                return false
            }
        } catch is TimedOut {
            throw Failure(description: "waited for \(what); last seen: \(last.withLock { $0 })")
        }
    }
}
