import Foundation
import OfflineEngine

/// The sample against a real project: one live read of a table (its snapshots printed until the
/// server answered or the refresh stalled), and with `--write` one insert.
public enum RemoteRun {
    public static func run(_ remote: SampleArguments.Remote, output: StoryOutput = .standard) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offline-sample-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = Configuration(url: remote.url, apiKey: remote.key, storage: .directory(folder))
        if let token = remote.token {
            // The token's `sub` is the user: the client signs them in from it.
            configuration.accessToken = { token }
        }
        let client = try await OfflineClient(configuration: configuration)
        defer { _ = client }
        output.line("Reading \(remote.table) from the project (20 rows).")
        do {
            try await read(client.from(remote.table).select().limit(20), output: output)
            if remote.write { try await write(client, table: remote.table, output: output) }
        } catch {
            await client.close()
            throw error
        }
        await client.close()
    }

    private static func read(_ list: ReadQuery, output: StoryOutput) async throws {
        for try await snapshot in list.snapshots() {
            let rows = snapshot.result?.rows ?? []
            output.line("  Sync: \(SyncWords.sync(snapshot.refresh, signedIn: true)); \(rows.count) rows")
            for row in rows.prefix(20) { output.line("    " + describe(row)) }
            switch snapshot.refresh {
            case .idle where !snapshot.isFromCache: return
            case .stalled(let failure):
                output.line("  The server did not answer: \(failure.summary)")
                return
            default: continue
            }
        }
    }

    private static func write(_ client: OfflineClient, table: String, output: StoryOutput) async throws {
        let row: Row = ["title": "Written by the OfflineEngine sample"]
        switch try await client.from(table).insert(row).execute().outcome {
        case .sent: output.line("  Inserted one row; the server has it.")
        case .queued: output.line("  Inserted one row on the device; it waits in the queue to sync.")
        }
    }

    /// A row as `column: value` pairs in column order, values cut to 40 characters.
    private static func describe(_ row: Row) -> String {
        row.values.keys.sorted().map { column in
            let text = row[column].map { $0.stringValue ?? "\($0)" } ?? ""
            return "\(column): " + (text.count > 40 ? String(text.prefix(39)) + "…" : text)
        }.joined(separator: ", ")
    }
}
