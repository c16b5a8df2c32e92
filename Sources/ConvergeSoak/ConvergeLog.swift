import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A converge client's durable log: one line per event, each on disk (`fsync`) before the
/// client goes on, so a SIGKILL never leaves a write the checker does not know of.
///
/// Lines: `user <id>` (the user signed in next), `begin <n> <kind> <id> <owner> <tag or ->`
/// (before `execute()`), `done <n> sent|queued` (once it returned), `threw <n> <reason>`. A line
/// cut short by a kill is ignored when read.
public final class ConvergeLog {
    private let descriptor: Int32

    /// Opens (or creates) the log at `path` for appending.
    public init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw ConvergeLogError() }
    }

    deinit { close(descriptor) }

    /// Appends `line` and waits until it is on disk.
    public func append(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
        fsync(descriptor)
    }

    /// The line saying `write` is about to be executed.
    public static func begin(_ write: ConvergeWrite) -> String {
        "begin \(write.n) \(write.kind.rawValue) \(write.id) \(write.owner) \(write.tag ?? "-")"
    }

    /// What a log holds.
    public struct Contents: Sendable {
        /// Every write, in the device's order, with its outcome.
        public var writes: [ConvergeWrite] = []
        /// The user signed in last.
        public var user: String?
    }

    /// Reads the log at `path` (empty when there is none).
    public static func read(path: String) -> Contents {
        var contents = Contents()
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return contents }
        var index: [Int: Int] = [:]
        // The last line may be cut short by a kill: only lines ended by a newline count.
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let parts = line.split(separator: " ").map(String.init)
            switch (parts.first, parts.count) {
            case ("user", 2): contents.user = parts[1]
            case ("begin", 6):
                guard let n = Int(parts[1]), let kind = ConvergeWrite.Kind(rawValue: parts[2]) else {
                    continue
                }
                index[n] = contents.writes.count
                contents.writes.append(
                    ConvergeWrite(
                        n: n, kind: kind, id: parts[3], owner: parts[4], tag: parts[5] == "-" ? nil : parts[5]
                    ))
            case ("done", 3):
                guard let n = Int(parts[1]), let at = index[n] else { continue }
                contents.writes[at].outcome = parts[2] == "sent" ? .sent : .queued
            case ("threw", let count) where count >= 2:
                guard let n = Int(parts[1]), let at = index[n] else { continue }
                contents.writes[at].outcome = .threw(parts.dropFirst(2).joined(separator: " "))
            default: continue
            }
        }
        return contents
    }
}

/// The log could not be opened.
public struct ConvergeLogError: Error, CustomStringConvertible {
    public var description: String { "The converge log could not be opened." }
}
