import Foundation
import OfflineEngine
import OfflineEngineTesting

extension ScenarioRun {
    /// Plays one step; an expectation that does not hold throws a ``Failure`` saying what was seen.
    func run(_ step: Step) async throws {
        let client = try opened()
        switch step {
        case .write(let write, let policy, let ends):
            try await perform(write, policy: policy, ends: ends, on: client)
        case .insertEach(let ids, let ends):
            for id in ids {
                let row: Row = ["id": .number(JSONNumber(id)), "done": false]
                try await perform(
                    SpecWrite(kind: .insert, table: "tasks", rows: [row]), policy: .offlineFirst, ends: ends,
                    on: client)
            }
        case .live(let name, let read):
            lists[name]?.list.stop()
            lists[name] = (read, LiveList(read.query(on: client)))
        case .stop(let name):
            lists[name]?.list.stop()
            lists[name] = nil
        case .fetch(let read, let shows):
            try await fetch(read, shows: shows, on: client)
        case .signIn(let user):
            try await guarded("sign in") { try await client.signIn(ScenarioRun.session(user)) }
        case .signOut:
            try await guarded("sign out") { try await client.signOut() }
        case .clear:
            try await guarded("clear") { try await client.clearLocalData() }
        case .refreshLiveReads:
            try await guarded("refreshLiveReads") { try await client.refreshLiveReads() }
        case .dismissRejected:
            try await guarded("dismiss") {
                let rejected = try await firstValue(of: client.rejectedMutations()) { _ in true }
                for write in rejected { try await client.dismissRejected(write.id) }
            }
        case .follow(let tables):
            follow(tables)
        case .feed(let event):
            feed?.send(event)
        default:
            try await runWorld(step, on: client)
        }
    }

    private func runWorld(_ step: Step, on client: OfflineClient) async throws {
        switch step {
        case .answer(let match, let answer, let times):
            transport.add(answer, to: match, times: times)
        case .release:
            transport.release()
        case .serverRows(let table, let rows):
            await server.setRows(rows, of: table)
        case .networkDown:
            networkDown = true
            transport.setUnreachable(true)
            await client.disableNetwork()
        case .networkUp:
            networkDown = false
            transport.setUnreachable(false)
            await client.enableNetwork()
        case .unreachable(let unreachable):
            transport.setUnreachable(unreachable)
        case .advance(let duration):
            try await guarded("waiting for a sleeper on the clock") { [clock] in
                await clock.sleepers(atLeast: 1)
            }
            clock.advance(by: duration)
        case .relaunch:
            try await relaunch()
        case .close:
            try await closeClient()
        default:
            try await check(step, on: client)
        }
    }

    private func perform(
        _ write: SpecWrite, policy: WritePolicy, ends: WriteEnd, on client: OfflineClient
    ) async throws {
        if ends == .inBackground {
            background.append(Task { _ = try? await write.query(on: client).execute(policy: policy) })
            return
        }
        let result: Result<WriteResult, any Error>
        do {
            let response = try await guarded("execute") {
                try await write.query(on: client).execute(policy: policy)
            }
            result = .success(response.outcome)
        } catch let failure as Failure {
            throw failure
        } catch {
            result = .failure(error)
        }
        switch (ends, result) {
        case (.sent, .success(.sent)), (.queued, .success(.queued)), (.fails, .failure): return
        default: throw Failure(description: "\(write) should end \(ends), ended \(result)")
        }
    }

    private func fetch(_ read: SpecRead, shows: Shows?, on client: OfflineClient) async throws {
        let result: Result<FetchResult, any Error>
        do {
            result = .success(try await guarded("fetch") { try await read.query(on: client).fetch() })
        } catch let failure as Failure {
            throw failure
        } catch {
            result = .failure(error)
        }
        switch (shows, result) {
        case (nil, .failure): return
        case (let shows?, .success(let fetched)) where shows.matches(fetched): return
        case (let shows, .success(let fetched)):
            let ids = fetched.rows.map { $0[shows?.column ?? "id"]?.rawValue ?? "-" }
            throw Failure(
                description: "fetch should give \(shows?.description ?? "an error"), gave \(ids), "
                    + "fromCache \(fetched.isFromCache), pending \(fetched.hasPendingMutations)")
        case (let shows?, .failure(let error)):
            throw Failure(description: "fetch should give \(shows), threw \(error)")
        }
    }
}
