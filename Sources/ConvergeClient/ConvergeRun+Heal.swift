import ConvergeSoak
import Foundation
import OfflineEngine
import OfflineEngineTesting
import Synchronization

extension ConvergeRun {
    /// Sends every user's queue (on a shared device, each user signed in in turn) and returns
    /// once each is empty, or after a minute.
    func drain() async {
        for user in users {
            if users.count > 1 { await signIn(user) }
            await client.syncNow()
            let client = client
            let waited = ContinuousClock.now
            defer { noteSlow("queue of \(user) drained", since: waited) }
            do {
                try await withTimeout(60) { try await client.waitForPendingWrites() }
            } catch {
                // Said on the error output, for the soak's log: what the sync status shows.
                let status = try? await withTimeout(5) { try await client.syncStatus.first { _ in true } }
                FileHandle.standardError.write(
                    Data("converge client \(device): not drained: \(String(describing: status))\n".utf8))
            }
        }
    }

    /// Fetches every list of every user again and returns what the device shows once each
    /// shows a fresh answer with nothing pending (a list that shows none within a minute is
    /// left out), with the rejected writes of each user. `drainSeconds`, what ``drain()`` took,
    /// counts in the heal's time; each list shown counts as progress.
    func dump(drainSeconds: Double, progress: ConvergeProgress) async -> ConvergeDump {
        let started = ContinuousClock.now
        var lists: [ConvergeDump.List] = []
        var rejected: [String] = []
        for user in users {
            if users.count > 1 { await signIn(user) }
            let asked = Date()
            try? await client.refreshLiveReads()
            await client.syncNow()
            for name in ConvergeLists.names {
                let query = ConvergeLists.query(name, user: user, device: device, on: client)
                let last = LastSnapshot()
                let waited = ContinuousClock.now
                defer { noteSlow("\(name) of \(user) shown fresh", since: waited) }
                let shown = try? await withTimeout(60) {
                    for try await snapshot in query.snapshots() {
                        if Self.isFresh(snapshot, since: asked) { return snapshot.result?.rows }
                        last.value.withLock { $0 = snapshot }
                    }
                    return nil
                }
                if let shown {
                    lists.append(ConvergeDump.List(user: user, name: name, rows: Array(shown)))
                } else {
                    // Said on the error output, for the soak's log: how the list stood.
                    let snapshot = last.value.withLock { $0 }
                    let state = snapshot.map {
                        "from cache \($0.isFromCache), pending \($0.hasPendingMutations), \($0.refresh), "
                            + "fetched \($0.fetchedAt.map { "\($0.timeIntervalSince(asked)) s" } ?? "never") after asked"
                    }
                    FileHandle.standardError.write(
                        Data(
                            "converge client \(device): \(name) of \(user) not fresh: \(state ?? "no snapshot")\n"
                                .utf8))
                }
                progress.progressed()
            }
            let client = client
            let waited = ContinuousClock.now
            let held = try? await withTimeout(10) { try await client.rejectedMutations().first { _ in true } }
            noteSlow("rejected writes of \(user) read\(held == nil ? " (gave up)" : "")", since: waited)
            rejected += (held ?? []).map {
                "\($0.operation.rawValue) of \($0.ownerID ?? "nobody"): \($0.error.status) \($0.error.code ?? "-")"
            }
        }
        return ConvergeDump(
            device: device, lists: lists, rejected: rejected,
            healSeconds: drainSeconds + Self.seconds(since: started), drainSeconds: drainSeconds)
    }

    /// Says on the error output, for the soak's log, a heal step that took over 3 s: a stalled
    /// heal then names the wait it stalled in, and whether other devices stalled in it at once.
    private func noteSlow(_ step: String, since start: ContinuousClock.Instant) {
        let took = Self.seconds(since: start)
        guard took > 3 else { return }
        FileHandle.standardError.write(
            Data(
                "converge client \(device): \(step) took \(String(format: "%.2f", took)) s, at \(Date())\n"
                    .utf8))
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A snapshot of the server's answer to a fetch made after `asked`, nothing laid over it.
    private static func isFresh(_ snapshot: QuerySnapshot, since asked: Date) -> Bool {
        !snapshot.isFromCache && !snapshot.hasPendingMutations && snapshot.refresh == .idle
            && (snapshot.fetchedAt ?? .distantPast) >= asked
    }
}

/// The last snapshot a heal's wait saw, to say how a list stood when it never showed fresh.
private final class LastSnapshot: Sendable {
    let value = Mutex<QuerySnapshot?>(nil)
}
