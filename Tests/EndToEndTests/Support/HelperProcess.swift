import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An executable of this package run as a child process, its output read line by line off the
/// cooperative pool (the server the child talks to answers on the pool).
enum HelperProcess {
    /// The executable `name`, built into the same products folder as this test bundle.
    static func executable(_ name: String) -> URL? {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL {
            folders.append(executable.deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        return folders.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `executable` with `arguments` and returns the complete lines it printed before it
    /// ended. `onLine` sees each line as it comes and returns how long after it to kill the child
    /// with SIGKILL (`nil`: not now); the child is killed at most once.
    static func run(
        _ executable: URL, _ arguments: [String], onLine: @escaping @Sendable (String) -> Duration?
    ) async throws -> [String] {
        // A thread of its own: dispatch's global threads grow slowly on Linux, and the tests
        // opening stores beside this one hold them.
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(executable, arguments, onLine: onLine) })
            }
        }
    }

    private static func runBlocking(
        _ executable: URL, _ arguments: [String], onLine: (String) -> Duration?
    ) throws -> [String] {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let pid = process.processIdentifier
        var buffer = Data()
        var lines: [String] = []
        var killScheduled = false
        // Set once the child closed its output (it is exiting): no kill is sent after that.
        let ended = Mutex(false)
        defer { ended.withLock { $0 = true } }
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty {
                ended.withLock { $0 = true }
                break
            }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                lines.append(line)
                if !killScheduled, let delay = onLine(line) {
                    killScheduled = true
                    let nanoseconds =
                        delay.components.seconds * 1_000_000_000 + delay.components.attoseconds
                        / 1_000_000_000
                    // The pipe stays open until the child dies, so it has not been reaped yet. On a
                    // thread of its own, so the kill lands when asked for even on a busy machine
                    // (from dispatch's global queue, in a loaded run, not one kill of 20 landed
                    // before its child had finished).
                    Thread.detachNewThread {
                        usleep(useconds_t(nanoseconds / 1_000))
                        ended.withLock { ended in if !ended { kill(pid, SIGKILL) } }
                    }
                }
            }
        }
        process.waitUntilExit()
        return lines
    }
}
