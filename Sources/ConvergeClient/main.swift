// One client of the converge soak, run as its own process so that the test can kill it
// (SIGKILL), stop and resume it (SIGSTOP, SIGCONT) and launch it again on the same store.
//
// Usage: ConvergeClient <store folder> <server URL> <device> <users> <log path>
// `users` is one user id, or several separated by commas for a device they share (the client
// signs them in in turn). It writes (inserts, updates, deletes of its users' rows) and reads
// live lists until told `drain` on its standard input; every write goes to the log first (see
// `ConvergeLog`). Prints `ready` once signed in; on `drain` it stops writing, sends its users'
// queues and prints `drained`; on `dump` it fetches its lists again and prints `healed <dump as
// JSON>` (with the seconds `drain` and `dump` took, and the longest time without progress);
// on `quit` it closes.
import ConvergeSoak
import Foundation
import OfflineEngine

let arguments = CommandLine.arguments
guard arguments.count == 6, let url = URL(string: arguments[2]) else {
    FileHandle.standardError.write(
        Data("usage: ConvergeClient <folder> <url> <device> <users> <log>\n".utf8))
    exit(2)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The commands on standard input, read on a thread of their own (reading blocks).
func commandLines() -> AsyncStream<String> {
    let (lines, line) = AsyncStream.makeStream(of: String.self)
    Thread {
        while let text = readLine() { line.yield(text) }
        line.finish()
    }.start()
    return lines
}

do {
    let run = try await ConvergeRun(
        folder: URL(fileURLWithPath: arguments[1], isDirectory: true), url: url, device: arguments[3],
        users: arguments[4].split(separator: ",").map(String.init), logPath: arguments[5])
    say("ready")
    let writing = Task { await run.write() }
    let reading = Task { await run.read() }
    let progress = ConvergeProgress()
    var following: Task<Void, Never>?
    var drainSeconds = 0.0
    for await line in commandLines() {
        if line == "drain" {
            let started = ContinuousClock.now
            progress.start()
            following = Task { await progress.follow(run.client) }
            await run.stopWriting()
            await writing.value
            await run.drain()
            progress.progressed()
            drainSeconds = ConvergeRun.seconds(since: started)
            say("drained")
        } else if line == "dump" {
            progress.resumed()
            var dump = await run.dump(drainSeconds: drainSeconds, progress: progress)
            following?.cancel()
            progress.progressed()
            dump.stallSeconds = progress.longestSeconds
            say("healed " + dump.json)
        } else if line == "quit" {
            break
        }
    }
    reading.cancel()
    await run.close()
} catch {
    FileHandle.standardError.write(Data("converge client failed: \(error)\n".utf8))
    exit(1)
}
