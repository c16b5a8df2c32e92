import Foundation
import OfflineEngineTesting
import Synchronization

@testable import OfflineEngine

/// A soak of the write path while users switch: writers make inserts, updates and deletes of
/// their own rows through one client, a switcher signs the users in turn (and takes the
/// network down and up), and the server enforces row-level security and fails at random.
/// At the end the queue is drained under each user and the server's rows are compared with
/// what the acknowledged writes must have left (see ``UserSoakModel``).
///
/// Who owns a write: the engine makes the signed-in user the owner when `execute()` starts.
/// Each writer holds a ``SharedLease`` shared from before its call until its request reaches
/// the server (or the call returns), and writes rows of the user signed in then; the switcher
/// signs in holding the lease exclusively. So the owner of every write is known, and still
/// a switch races the replay of the queue, and the answer to, and queueing of, writes sent at
/// once.
struct UserSoak: Sendable {
    struct Settings: Sendable {
        var seed: UInt64
        var writers = 8
        var writes = 10_000
        var users = ["A", "B"]
        var faults: RowSecurityServer.FaultRates
        /// Whether the switcher also takes the network down and up.
        var networkOutages = true
        /// How many writes (of all writers) go by between two moves of the switcher.
        var movesEvery = 10...50
        /// Writers wait until at most this many of the signed-in user's writes are queued
        /// (see ``UserSoakBacklog``), for at most `backlogWaitSeconds` of real time.
        var backlog = 0
        var backlogWaitSeconds = 2.0
        /// How long the final drain may take, in real seconds.
        var drainSeconds = 20.0
        var clockSpeedup = 10_000
        /// Whether a writer gives its lease up as soon as its request reaches the server (so a
        /// switch can race the rest of its call), or only when its call returns.
        var releaseLeaseOnArrival = true
    }

    let settings: Settings

    static let table = "items"
    static let apiKey = "anon-key"

    static func session(_ user: String) -> AuthSession {
        AuthSession(accessToken: "token-\(user)", userID: user)
    }

    /// What the writers, switcher and client share.
    final class Context: Sendable {
        let client: OfflineClient
        let lease = SharedLease()
        let arrivals: UserSoakArrivals
        let backlog = UserSoakBacklog()
        /// The user signed in now; changed only under the exclusive lease.
        let signedIn: Mutex<String>
        /// One entry per finished write, for the switcher to pace itself by.
        let progress = AsyncLog<Int>()

        init(client: OfflineClient, arrivals: UserSoakArrivals, user: String) {
            self.client = client
            self.arrivals = arrivals
            signedIn = Mutex(user)
        }
    }

    struct Moves: Sendable {
        var switches = 0
        var outages = 0
        /// Every time the network went down or came back.
        var flaps = 0
        var backlogTimeouts = 0
    }

    /// Runs the soak and tallies it.
    func run() async throws -> UserSoakTally {
        let started = ContinuousClock.now
        let arrivals = UserSoakArrivals()
        let server = RowSecurityServer(
            table: Self.table, apiKey: Self.apiKey, faults: settings.faults, seed: settings.seed,
            onWrite: { arrivals.arrived($0) })
        let client = try await OfflineClient(
            configuration: Configuration(
                url: URL(string: "https://example.invalid")!, apiKey: Self.apiKey, storage: .inMemory,
                clock: ScaledClock(speedup: settings.clockSpeedup), transport: server))
        try await client.signIn(Self.session(settings.users[0]))
        let context = Context(client: client, arrivals: arrivals, user: settings.users[0])

        let follower = Task {
            do {
                for try await count in client.pendingMutationCount() { context.backlog.report(count) }
            } catch {}
        }
        let (logs, made) = try await writeAndSwitch(context)
        var moves = made
        follower.cancel()
        moves.backlogTimeouts = context.backlog.timeouts
        let writing = ContinuousClock.now - started
        let drained = try await drain(client)
        let rejected = try await rejectedWrites(client)
        let left = try await client.store.queue.all().map(\.mutation)
        await client.close()
        let report = await server.report()
        return UserSoakTally(
            settings: settings, logs: logs, report: report, rejected: rejected, leftQueued: left,
            moves: moves, drained: drained,
            timing: (writing: writing, total: ContinuousClock.now - started))
    }

    private enum Part: Sendable {
        case log(Int, [SoakWrite])
        case moves(Moves)
    }

    private func writeAndSwitch(_ context: Context) async throws -> ([[SoakWrite]], Moves) {
        try await withThrowingTaskGroup(of: Part.self) { group in
            for index in 0..<settings.writers {
                let count =
                    settings.writes / settings.writers + (index < settings.writes % settings.writers ? 1 : 0)
                group.addTask { .log(index, await writer(index, count: count, context)) }
            }
            group.addTask { .moves(try await switcher(context)) }
            var logs = [[SoakWrite]](repeating: [], count: settings.writers)
            var moves = Moves()
            for try await part in group {
                switch part {
                case .log(let index, let log): logs[index] = log
                case .moves(let made): moves = made
                }
            }
            return (logs, moves)
        }
    }

    // MARK: Writers

    /// One writer: `count` writes, each an insert of a new row of the signed-in user, or an
    /// update or delete of one of its earlier rows of that user.
    private func writer(_ index: Int, count: Int, _ context: Context) async -> [SoakWrite] {
        var random = SeededRandom(seed: settings.seed &+ 0x1_0000 &* UInt64(index + 1))
        // The writer's rows in a known state (not deleted, no call on them threw), per owner.
        var rows: [String: [(key: String, value: String)]] = [:]
        var log: [SoakWrite] = []
        log.reserveCapacity(count)
        for number in 0..<count {
            await context.backlog.wait(atMost: settings.backlog, within: settings.backlogWaitSeconds)
            let ticket = await context.lease.acquireShared()
            let user = context.signedIn.withLock { $0 }
            let own = rows[user] ?? []
            let roll = Int.random(in: 0..<100, using: &random)
            let kind: SoakWrite.Kind = own.isEmpty || roll < 40 ? .insert : roll < 80 ? .update : .delete
            let pick = own.isEmpty ? 0 : Int.random(in: 0..<own.count, using: &random)
            let key = kind == .insert ? random.uuid().uuidString.lowercased() : own[pick].key
            let value = kind == .delete ? nil : "w\(index)-\(number)"
            let mark = value.map(UserSoakArrivals.mark(value:)) ?? UserSoakArrivals.mark(deleting: key)
            if settings.releaseLeaseOnArrival { context.arrivals.expect(mark, releasing: ticket) }
            let (outcome, queuedAs) = await Self.execute(
                kind, key: key, owner: user, value: value, on: context.client)
            context.arrivals.forget(mark)
            ticket.release()
            log.append(
                SoakWrite(
                    kind: kind, key: key, owner: user, value: value, outcome: outcome,
                    ownerMismatch: queuedAs.map { $0 != user } ?? false))
            // The writer's next writes build only on rows whose state it knows.
            if kind != .insert { rows[user]?.remove(at: pick) }
            if kind != .delete, outcome.isAcknowledged, let value {
                rows[user, default: []].append((key, value))
            }
            context.progress.append(number)
        }
        return log
    }

    /// Runs one write; for a queued one, also the owner the engine gave it.
    private static func execute(
        _ kind: SoakWrite.Kind, key: String, owner: String, value: String?, on client: OfflineClient
    ) async -> (SoakWrite.Outcome, queuedAs: String??) {
        do {
            let items = client.from(table)
            let query: WriteQuery
            switch kind {
            case .insert:
                query = try items.insert([
                    "id": .string(key), "owner": .string(owner), "value": .string(value ?? ""),
                ])
            case .update:
                query = try items.update(["value": .string(value ?? "")]).eq("id", value: key)
            case .delete:
                query = items.delete().eq("id", value: key)
            }
            switch try await query.execute().outcome {
            case .sent: return (.sent, nil)
            case .queued(let pending): return (.queued, .some(pending.ownerID))
            }
        } catch let refusal as PostgrestError where (400..<500).contains(refusal.status) {
            return (.refused(status: refusal.status, code: refusal.code), nil)
        } catch {
            return (.failed(String(describing: type(of: error))), nil)
        }
    }

    // MARK: Switcher

    /// Every few writes: signs the other user in (holding the lease exclusively), or takes the
    /// network down or up, or both.
    private func switcher(_ context: Context) async throws -> Moves {
        var random = SeededRandom(seed: settings.seed ^ 0x5EED_5EED)
        var moves = Moves()
        var reached = 0
        var offline = false
        while true {
            reached += Int.random(in: settings.movesEvery, using: &random)
            guard reached < settings.writes else { break }
            _ = try await context.progress.values(atLeast: reached)
            let roll = Int.random(in: 0..<100, using: &random)
            if settings.networkOutages, roll >= 65 {
                if offline {
                    await context.client.enableNetwork()
                    context.backlog.setOpen(false)
                } else {
                    context.backlog.setOpen(true)
                    await context.client.disableNetwork()
                }
                offline.toggle()
                moves.flaps += 1
                if offline { moves.outages += 1 }
                if roll < 90 { continue }
            }
            try await context.lease.withExclusive {
                let current = context.signedIn.withLock { $0 }
                let others = settings.users.filter { $0 != current }
                // With one user, the switch is a new session of the same user.
                let next = others.isEmpty ? current : others[Int.random(in: 0..<others.count, using: &random)]
                try await context.client.signIn(Self.session(next))
                context.signedIn.withLock { $0 = next }
            }
            moves.switches += 1
        }
        await context.client.enableNetwork()
        context.backlog.setOpen(false)
        return moves
    }

    // MARK: The end

    /// With the network up, signs each user in turn until the queue is empty (or time is up);
    /// returns whether it emptied.
    private func drain(_ client: OfflineClient) async throws -> Bool {
        await client.enableNetwork()
        let deadline = ContinuousClock.now + .seconds(settings.drainSeconds)
        var turn = 0
        while try await !client.store.queue.all().isEmpty {
            guard ContinuousClock.now < deadline else { return false }
            try await client.signIn(Self.session(settings.users[turn % settings.users.count]))
            turn += 1
            _ = try? await firstValue(of: client.pendingMutationCount(), within: 2) { $0 == 0 }
        }
        return true
    }

    /// The rejected writes, as each user sees them (and as the engine holds them).
    private func rejectedWrites(_ client: OfflineClient) async throws -> [RejectedMutation] {
        var all: [UUID: RejectedMutation] = [:]
        for user in settings.users {
            try await client.signIn(Self.session(user))
            for rejected in try await firstValue(of: client.rejectedMutations(), where: { _ in true }) {
                all[rejected.id] = rejected
            }
        }
        for rejected in client.allRejected { all[rejected.id] = rejected }
        return all.values.sorted { $0.rejectedAt < $1.rejectedAt }
    }
}
