import Foundation
import OfflineEngine
import OfflineEngineTesting

/// The sample's server: PostgREST's behaviour in memory, with one rule of its own, as a table's
/// check constraint would be (a task's title may not be empty).
enum DemoServer {
    static let tasks: [TaskItem] = [
        TaskItem(id: UUID(uuidString: "6F1C2A3E-0000-4000-8000-000000000001")!, title: "Buy milk"),
        TaskItem(id: UUID(uuidString: "6F1C2A3E-0000-4000-8000-000000000002")!, title: "Call the plumber"),
        TaskItem(
            id: UUID(uuidString: "6F1C2A3E-0000-4000-8000-000000000003")!, title: "File taxes", done: true),
    ]

    static func make() async -> InMemoryPostgREST {
        let rows: [Row] = tasks.map { task in
            [
                "id": .string(task.id.uuidString.lowercased()), "title": .string(task.title),
                "done": .bool(task.done),
            ]
        }
        let server = InMemoryPostgREST(tables: ["tasks": rows])
        await server.setInterceptor { request in
            guard request.method == .post || request.method == .patch, let body = request.body,
                hasEmptyTitle(try? JSONSerialization.jsonObject(with: body))
            else { return nil }
            let refusal = #"""
                {"code":"23514","message":"new row for relation \"tasks\" violates check constraint \"tasks_title_check\"","details":null,"hint":null}
                """#
            return HTTPResponse(
                status: 400, headers: ["Content-Type": "application/json"], body: Data(refusal.utf8))
        }
        return server
    }

    private static func hasEmptyTitle(_ json: Any?) -> Bool {
        if let rows = json as? [Any] { return rows.contains(where: hasEmptyTitle) }
        return (json as? [String: Any])?["title"] as? String == ""
    }
}
