// Appends queued writes to a store until it is killed; the crash-recovery test drives it.
//
// Usage: StoreCrashHelper <folder> [writers] [limit]
// Each of `writers` concurrent tasks appends writes one after another (awaiting each) and prints
// the write's id on its own line, with one unbuffered write(2), once `enqueue` has returned. A
// write carries its writer number and its position in that writer's sequence, so the test can check
// the order. The helper exits by itself after `limit` writes per writer.
import Foundation
import OfflineEngine

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: StoreCrashHelper <folder> [writers] [limit]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
let writers = arguments.count > 2 ? Int(arguments[2]) ?? 4 : 4
let limit = arguments.count > 3 ? Int(arguments[3]) ?? 100_000 : 100_000

let store: Store
do {
    store = try Store.open(.directory(folder))
} catch {
    FileHandle.standardError.write(Data("open failed: \(error)\n".utf8))
    exit(1)
}

do {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for writer in 0..<writers {
            group.addTask {
                for position in 0..<limit {
                    let row: Row = [
                        "id": .string(UUID().uuidString.lowercased()),
                        "writer": .number(JSONNumber(writer)),
                        "n": .number(JSONNumber(position)),
                        "title": "a task written offline",
                        "amount": 1.5,
                    ]
                    let mutation = Mutation(table: "tasks", operation: .insert, rows: [row])
                    try await store.queue.enqueue(mutation)
                    FileHandle.standardOutput.write(Data("\(mutation.id.uuidString.lowercased())\n".utf8))
                }
            }
        }
        try await group.waitForAll()
    }
} catch {
    FileHandle.standardError.write(Data("enqueue failed: \(error)\n".utf8))
    exit(1)
}
await store.close()
