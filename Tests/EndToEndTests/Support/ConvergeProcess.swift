import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One device of the converge soak: a `ConvergeClient` process on its own store folder and log,
/// which the chaos kills (SIGKILL) and launches again, stops (SIGSTOP) and resumes (SIGCONT).
/// Its output is read line by line on a thread of its own.
final class ConvergeProcess: Sendable {
    let device: String
    let users: [String]
    let logPath: String
    private let executable: URL
    private let arguments: [String]

    /// The running process: its id, its input, and the lines it printed.
    private struct Running {
        let process: Process
        let launch: Int
        let input: FileHandle
        var lines: [String] = []
        var exited = false
        var paused = false
    }

    private let running = Mutex<Running?>(nil)
    private let launches = Mutex(0)

    init(executable: URL, folder: URL, url: URL, device: String, users: [String]) {
        self.executable = executable
        self.device = device
        self.users = users
        logPath = folder.appendingPathComponent("\(device).log").path
        arguments = [
            folder.appendingPathComponent(device).path, url.absoluteString, device,
            users.joined(separator: ","),
            logPath,
        ]
    }

    /// Starts the process (again, on the same store and log).
    func launch() throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        let launch = launches.withLock { count in
            count += 1
            return count
        }
        let (reader, writer) = (output.fileHandleForReading, input.fileHandleForWriting)
        try process.run()
        running.withLock { $0 = Running(process: process, launch: launch, input: writer) }
        let reading = Thread { [self] in read(reader, of: launch) }
        reading.start()
    }

    /// Collects the lines of launch number `launch` until its output closes (it exited).
    private func read(_ output: FileHandle, of launch: Int) {
        var buffer = Data()
        while true {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            var lines: [String] = []
            while let newline = buffer.firstIndex(of: 10) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
            running.withLock { running in
                if running?.launch == launch { running?.lines += lines }
            }
        }
        running.withLock { running in
            if running?.launch == launch { running?.exited = true }
        }
    }

    /// Whether it runs and is not stopped.
    var isRunning: Bool { running.withLock { $0.map { !$0.exited && !$0.paused } ?? false } }

    /// Kills it with SIGKILL and waits until it has exited.
    func kill() async throws {
        guard let pid = running.withLock({ $0?.process.processIdentifier }) else { return }
        deliver(SIGKILL, to: pid)
        try await awaitCondition(within: 30) { self.running.withLock { $0?.exited ?? true } }
    }

    /// Stops it (SIGSTOP) until ``resume()``.
    func pause() {
        running.withLock { running in
            guard let pid = running?.process.processIdentifier, running?.exited == false else { return }
            deliver(SIGSTOP, to: pid)
            running?.paused = true
        }
    }

    /// Lets a stopped process go on (SIGCONT).
    func resume() {
        running.withLock { running in
            guard let pid = running?.process.processIdentifier, running?.paused == true else { return }
            deliver(SIGCONT, to: pid)
            running?.paused = false
        }
    }

    /// Writes `command` as a line to its input.
    func send(_ command: String) {
        let input = running.withLock { $0?.input }
        try? input?.write(contentsOf: Data((command + "\n").utf8))
    }

    /// The first line it printed since its launch that starts with `prefix`; fails after
    /// `seconds` of real time or once it has exited without printing one.
    func line(startingWith prefix: String, within seconds: Double) async throws -> String {
        var found: String?
        try await awaitCondition(within: seconds) {
            let (lines, exited) = self.running.withLock { ($0?.lines ?? [], $0?.exited ?? true) }
            found = lines.first { $0.hasPrefix(prefix) }
            if found == nil, exited { throw ConvergeProcessError(device: self.device, awaited: prefix) }
            return found != nil
        }
        return found ?? ""
    }

    /// Ends it however it stands: resumed, then killed (for a test that failed midway).
    func end() async {
        resume()
        try? await kill()
    }
}

private func deliver(_ signal: Int32, to pid: Int32) {
    _ = kill(pid, signal)
}

/// A converge client exited without printing what was awaited.
struct ConvergeProcessError: Error, CustomStringConvertible {
    let device: String
    let awaited: String
    var description: String { "the client of \(device) exited before printing \(awaited)" }
}

/// Returns once `condition` holds, checking it every 50 ms; throws ``NotSeen`` after `seconds`.
func awaitCondition(within seconds: Double, _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw NotSeen(seconds: seconds) }
        try await Task.sleep(for: .milliseconds(50))
    }
}
