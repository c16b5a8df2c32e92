// Runs a client that queues writes offline and replays them to a server, until it is killed;
// the end-to-end crash test drives it (the server and PostgreSQL live in the test process).
//
// Usage: ReplayCrashHelper <store folder> <server URL> <user id> <token> <first n> <count>
// Opens the client on the store, signs in, queues `count` inserts into `journal` offline (n =
// first, first + 1, ...), printing `ack <id> <n>` with one unbuffered write once each
// `execute()` has returned, then goes online, prints `online`, and prints `drained` and exits
// once nothing is queued. Writes of earlier runs still queued replay first.
import Foundation
import OfflineEngine

let arguments = CommandLine.arguments
guard arguments.count == 7, let url = URL(string: arguments[2]), let first = Int(arguments[5]),
    let count = Int(arguments[6])
else {
    FileHandle.standardError.write(
        Data("usage: ReplayCrashHelper <folder> <url> <user> <token> <first> <count>\n".utf8))
    exit(2)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

do {
    // Top-level code names the synchronous initialiser; `open()` opens the store before the
    // first write, as the opening initialiser would.
    let client = OfflineClient(
        configuration: Configuration(
            url: url, apiKey: "anon-key",
            storage: .directory(URL(fileURLWithPath: arguments[1], isDirectory: true)),
            primaryKeys: ["journal": ["id"]], transport: URLSessionTransport()))
    try await client.open()
    await client.disableNetwork()
    try await client.signIn(AuthSession(accessToken: arguments[4], userID: arguments[3]))
    for n in first..<(first + count) {
        let id = UUID().uuidString.lowercased()
        let row: Row = ["id": .string(id), "n": .number(JSONNumber(n)), "user_id": .string(arguments[3])]
        _ = try await client.from("journal").insert(row).execute()
        say("ack \(id) \(n)")
    }
    await client.enableNetwork()
    say("online")
    for try await pending in client.pendingMutationCount() where pending == 0 { break }
    let rejected = try await client.rejectedMutations().first { _ in true } ?? []
    say("drained \(rejected.count)")
    await client.close()
} catch {
    FileHandle.standardError.write(Data("helper failed: \(error)\n".utf8))
    exit(1)
}
