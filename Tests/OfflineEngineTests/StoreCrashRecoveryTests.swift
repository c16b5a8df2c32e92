import Foundation
import Testing

@testable import OfflineEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Store crash recovery", .serialized, .timeLimit(.minutes(10)))
struct StoreCrashRecoveryTests {
    /// The StoreCrashHelper executable, built into the same products folder as this test bundle.
    static func helperExecutable() -> URL? {
        let name = "StoreCrashHelper"
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL {
            folders.append(executable.deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        return folders.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the helper, kills it with SIGKILL after `killAfter` acknowledged ids, and returns every
    /// id it acknowledged (complete lines only), in printed order.
    static func runAndKill(_ helper: URL, folder: URL, writers: Int, killAfter: Int) throws -> [UUID] {
        let process = Process()
        process.executableURL = helper
        process.arguments = [folder.path, String(writers)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        var acknowledged: [UUID] = []
        var killed = false
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if let id = UUID(uuidString: line) { acknowledged.append(id) }
            }
            if !killed, acknowledged.count >= killAfter {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        process.waitUntilExit()
        return acknowledged
    }

    @Test("every write acknowledged before SIGKILL is in the queue exactly once, in order")
    func survivesKill() async throws {
        let helper = try #require(Self.helperExecutable(), "StoreCrashHelper is built next to the tests")
        let rounds = 20
        var acknowledgedTotal = 0
        var lost = 0
        var duplicated = 0
        var misordered = 0
        for round in 0..<rounds {
            let folder = temporaryStoreFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let writers = round % 2 == 0 ? 4 : 1
            let killAfter = Int.random(in: 1...600)
            let acknowledged = try await Self.offPool {
                try Self.runAndKill(helper, folder: folder, writers: writers, killAfter: killAfter)
            }
            let store = try Store.open(.directory(folder))
            let queued = try await store.queue.all()
            await store.close()

            var counts: [UUID: Int] = [:]
            for write in queued { counts[write.mutation.id, default: 0] += 1 }
            acknowledgedTotal += acknowledged.count
            lost += acknowledged.filter { counts[$0] == nil }.count
            duplicated += counts.values.filter { $0 > 1 }.count
            misordered += Self.orderViolations(acknowledged: acknowledged, queued: queued)
        }
        print(
            "crash-recovery: \(rounds) rounds, \(acknowledgedTotal) acknowledged, \(lost) lost, "
                + "\(duplicated) duplicated")
        #expect(acknowledgedTotal >= rounds)
        #expect(lost == 0)
        #expect(duplicated == 0)
        #expect(misordered == 0)
    }

    /// Counts breaks of order: within each writer the queue holds positions 0, 1, 2... without gaps,
    /// and acknowledged ids of one writer appear in the queue in the order they were printed.
    static func orderViolations(acknowledged: [UUID], queued: [QueuedWrite]) -> Int {
        var violations = 0
        var nextPosition: [Int: Int] = [:]
        var queueIndex: [UUID: Int] = [:]
        var writerOf: [UUID: Int] = [:]
        for (index, write) in queued.enumerated() {
            let row = write.mutation.rows.first
            let writer = row?["writer"]?.numberValue?.intValue ?? -1
            let position = row?["n"]?.numberValue?.intValue ?? -1
            if position != nextPosition[writer, default: 0] { violations += 1 }
            nextPosition[writer] = position + 1
            queueIndex[write.mutation.id] = index
            writerOf[write.mutation.id] = writer
        }
        var lastIndex: [Int: Int] = [:]
        for id in acknowledged {
            guard let index = queueIndex[id], let writer = writerOf[id] else { continue }
            if index <= lastIndex[writer, default: -1] { violations += 1 }
            lastIndex[writer] = index
        }
        return violations
    }

    /// Runs blocking work (reading a pipe) on a dispatch thread, not the cooperative pool.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}
