import Foundation
import OfflineEngine
import OfflineEngineTesting
import SampleStory
import Synchronization
import Testing

/// `swift run Sample`'s story, run as the sample runs it (a local server, URLSession, a store on
/// disk), its output checked for what the story must show.
@Suite("The sample's story", .timeLimit(.minutes(10)))
struct SampleStoryTests {
    @Test("it shows the five Sync phrases, a cloud mark, a rejected write and the relaunch")
    func story() async throws {
        let lines = Mutex<[String]>([])
        let boards = Mutex<[PrintedBoard]>([])
        try await DemoStory.run(
            output: StoryOutput(board: { board in boards.withLock { $0.append(board) } }) { line in
                lines.withLock { $0.append(line) }
            }, patience: realTimeScale)
        let output = lines.withLock { $0 }
        let text = output.joined(separator: "\n")
        for phrase in [
            "Waits for the first sign-in", "Up to date with the server", "Asking the server…",
            "Paused while offline", "Can’t reach the server — showing saved data",
        ] {
            #expect(text.contains(phrase), "missing: \(phrase)")
        }
        #expect(output.contains { $0.hasPrefix("     ☁  [") }, "no row with a cloud mark")
        #expect(text.contains("rejected: the insert of a task, because a task needs a title"))
        #expect(text.contains("The app quits and starts again, still offline"))
        #expect(output.contains { $0.contains("Pick up the parcel") }, "the other device's task never showed")
        #expect(!text.contains("\u{1B}"), "control codes in piped output")
        #expect(output.last == "Done.")
        checkBoards(boards.withLock { $0 })
    }

    /// Every printed table shows its snapshot's rows, each with its mark, in order; the ticked-off
    /// task never shows its mark before its tick, and the queued task never shows without it.
    private func checkBoards(_ boards: [PrintedBoard]) {
        #expect(boards.count >= 10)
        for (index, board) in boards.enumerated() {
            let rows = board.snapshot.result?.rows ?? []
            var expected = rows.map { row in
                let id = row["id"]?.stringValue ?? ""
                let mark = board.snapshot.pendingRowIDs.contains(id) ? "☁" : " "
                let done = row["done"] == .bool(true) ? "x" : " "
                return "     \(mark)  [\(done)]  \(row["title"]?.stringValue ?? "")"
            }
            if rows.isEmpty { expected = ["        (no tasks)"] }
            #expect(Array(board.lines.dropFirst(2)) == expected, "board \(index) is not its snapshot")
        }
        let shown = boards.flatMap(\.lines)
        #expect(shown.contains("     ☁  [x]  Buy milk"))
        #expect(!shown.contains("     ☁  [ ]  Buy milk"), "a mark before its row changed")
        #expect(shown.contains("     ☁  [ ]  Renew passport"))
        #expect(!shown.contains("        [ ]  Renew passport"), "a queued row without its mark")
    }

    @Test("arguments: none is the story, --url and --key a real project, --help and mistakes explained")
    func arguments() {
        #expect(SampleArguments([]) == .demo)
        #expect(SampleArguments(["--help"]) == .help)
        guard
            case .remote(let remote) = SampleArguments([
                "--url", "https://abc.supabase.co", "--key", "k", "--write",
            ])
        else {
            Issue.record("--url and --key did not make a remote run")
            return
        }
        #expect(remote.table == "tasks" && remote.write && remote.token == nil)
        #expect(SampleArguments(["--key", "k"]) != .demo)
        if case .invalid = SampleArguments(["--bogus"]) {} else { Issue.record("--bogus was accepted") }
    }
}

/// `--url` and `--key` against a project: here a local server standing in for one.
@Suite("The sample against a project", .timeLimit(.minutes(10)))
struct SampleRemoteTests {
    @Test("it reads the table's rows from the server, and writes one row only with --write")
    func remote() async throws {
        let server = InMemoryPostgREST(tables: ["notes": [["id": 1, "title": "From the server"]]])
        try await LocalHTTPServer.serving(server) { local in
            for write in [false, true] {
                let lines = Mutex<[String]>([])
                let remote = SampleArguments(
                    ["--url", local.baseURL.absoluteString, "--key", "anon", "--table", "notes"]
                        + (write ? ["--write"] : []))
                guard case .remote(let arguments) = remote else {
                    Issue.record("not a remote run: \(remote)")
                    return
                }
                try await RemoteRun.run(
                    arguments, output: StoryOutput { line in lines.withLock { $0.append(line) } })
                let text = lines.withLock { $0 }.joined(separator: "\n")
                #expect(text.contains("Up to date with the server; 1 rows") || text.contains("; 2 rows"))
                #expect(text.contains("title: From the server"))
                #expect(text.contains("Inserted one row") == write)
            }
        }
        #expect(await server.rows(of: "notes").count == 2)
    }
}
