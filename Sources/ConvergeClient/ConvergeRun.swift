import ConvergeSoak
import Foundation
import OfflineEngine
import OfflineEngineTesting

/// A converge client's life: it writes its users' rows and reads their lists live until told
/// to heal, then drains, fetches again and tells what it shows.
actor ConvergeRun {
    let client: OfflineClient
    let device: String
    let users: [String]
    private let log: ConvergeLog
    private let tokens: ConvergeTokens
    /// The next write's number on this device.
    private var next: Int
    /// Per user, the rows this device made whose state it knows (no write of theirs is in doubt).
    private var rows: [String: [String]]
    private var writing = true

    init(folder: URL, url: URL, device: String, users: [String], logPath: String) async throws {
        self.device = device
        self.users = users
        let contents = ConvergeLog.read(path: logPath)
        next = (contents.writes.map(\.n).max() ?? -1) + 1
        rows = Self.knownRows(contents.writes)
        let user = contents.user ?? users[0]
        let tokens = ConvergeTokens(user: user)
        self.tokens = tokens
        log = try ConvergeLog(path: logPath)
        client = try await OfflineClient(
            configuration: Configuration(
                url: url, apiKey: "anon-key", storage: .directory(folder), transport: URLSessionTransport(),
                accessToken: { tokens.token() }))
        try await client.signIn(AuthSession(accessToken: tokens.token(), userID: user))
    }

    /// The rows whose state the writes in `log` leave known, per user: a write whose call did
    /// not return leaves its row alone for good.
    private static func knownRows(_ writes: [ConvergeWrite]) -> [String: [String]] {
        var known: [String: [String]] = [:]
        var doubtful = Set<String>()
        for write in writes {
            if !write.outcome.isAcknowledged { doubtful.insert(write.id) }
            if write.kind == .insert { known[write.owner, default: []].append(write.id) }
            if write.kind == .delete { known[write.owner]?.removeAll { $0 == write.id } }
        }
        return known.mapValues { $0.filter { !doubtful.contains($0) } }
    }

    /// Writes until ``stopWriting()``: a write every 150-600 ms, and on a shared device now and
    /// then another user signed in.
    func write() async {
        while writing {
            try? await Task.sleep(for: .milliseconds(Int.random(in: 150...600)))
            guard writing else { return }
            if users.count > 1, Int.random(in: 0..<100) < 4 {
                await signIn(users.filter { $0 != tokens.user }.randomElement() ?? users[0])
            }
            await writeOnce()
            if next % 10 == 0 {
                let user = tokens.user
                let name = ConvergeLists.names.randomElement() ?? "all"
                _ = try? await ConvergeLists.query(name, user: user, device: device, on: client).fetch()
            }
        }
    }

    func stopWriting() { writing = false }

    /// Signs `user` in, as the app's auth would: logged first, then the provider, then the client.
    func signIn(_ user: String) async {
        log.append("user \(user)")
        tokens.user = user
        try? await client.signIn(AuthSession(accessToken: tokens.token(), userID: user))
    }

    /// One insert, update or delete of the signed-in user's rows, logged before and after.
    private func writeOnce() async {
        let user = tokens.user
        let own = rows[user] ?? []
        let roll = Int.random(in: 0..<100)
        let kind: ConvergeWrite.Kind = own.isEmpty || roll < 50 ? .insert : roll < 80 ? .update : .delete
        let pick = own.isEmpty ? 0 : Int.random(in: 0..<own.count)
        let id = kind == .insert ? UUID().uuidString.lowercased() : own[pick]
        let n = next
        next += 1
        let write = ConvergeWrite(
            n: n, kind: kind, id: id, owner: user,
            tag: kind == .delete ? nil : ConvergeWrite.tag(device: device, n: n))
        log.append(ConvergeLog.begin(write))
        if kind != .insert { rows[user]?.remove(at: pick) }
        do {
            let result = try await send(write)
            log.append("done \(n) \(result.isQueued ? "queued" : "sent")")
            if kind != .delete { rows[user, default: []].append(id) }
        } catch {
            log.append("threw \(n) \(String(describing: type(of: error)))")
        }
    }

    private func send(_ write: ConvergeWrite) async throws -> WriteResponse<Void> {
        let notes = client.from(ConvergeLists.table)
        switch write.kind {
        case .insert:
            let row: Row = [
                "id": .string(write.id), "user_id": .string(write.owner), "device": .string(device),
                "n": .number(JSONNumber(write.n)), "value": .string(write.tag ?? ""),
            ]
            return try await notes.insert(row).execute()
        case .update:
            return try await notes.update(["value": .string(write.tag ?? "")]).eq("id", value: write.id)
                .execute()
        case .delete:
            return try await notes.delete().eq("id", value: write.id).execute()
        }
    }

    /// Reads every list of every user live, until cancelled.
    nonisolated func read() async {
        await withTaskGroup(of: Void.self) { group in
            for user in users {
                for name in ConvergeLists.names {
                    let query = ConvergeLists.query(name, user: user, device: device, on: client)
                    group.addTask {
                        do {
                            for try await _ in query.snapshots() {}
                        } catch {}
                    }
                }
            }
        }
    }

    func close() async {
        await client.close()
    }
}
