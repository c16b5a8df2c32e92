// A data layer written for supabase-swift's PostgREST client, compiled against this library:
// the import is the only line changed (it was `import Supabase`). The client it is handed is
// the app's (`Database`, in DatabaseSetup.swift), as a Supabase app keeps its client beside its
// data layer.
import Foundation
import OfflineEngine

struct Todo: Codable, Hashable, Sendable, Identifiable {
    var id: UUID
    var title: String
    var isComplete: Bool
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, title
        case isComplete = "is_complete"
        case createdAt = "created_at"
    }
}

struct NewTodo: Encodable, Sendable {
    var id: UUID
    var title: String
    var isComplete = false
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, title
        case isComplete = "is_complete"
        case createdAt = "created_at"
    }
}

struct TodoStats: Decodable, Sendable, Equatable {
    var open: Int
    var done: Int
}

struct TodoRepository: Sendable {
    let database: Database

    func todos() async throws -> [Todo] {
        try await database.from("todos").select().order("created_at", ascending: false).execute().value
    }

    func todo(id: UUID) async throws -> Todo {
        try await database.from("todos").select().eq("id", value: id).single().execute().value
    }

    func todoIfAny(id: UUID) async throws -> Todo? {
        try await database.from("todos").select().eq("id", value: id).maybeSingle().execute().value
    }

    func openCount() async throws -> Int {
        let response = try await database.from("todos").select("*", head: true, count: .exact)
            .eq("is_complete", value: false).execute()
        return response.count ?? 0
    }

    func page(_ number: Int, size: Int = 20) async throws -> (todos: [Todo], total: Int) {
        let response: PostgrestResponse<[Todo]> = try await database.from("todos").select("*", count: .exact)
            .order("created_at").range(from: number * size, to: number * size + size - 1).execute()
        return (response.value, response.count ?? response.value.count)
    }

    func search(_ text: String) async throws -> [Todo] {
        try await database.from("todos").select("id, title, is_complete, created_at")
            .ilike("title", pattern: "%\(text)%").or("is_complete.eq.false,title.ilike.*urgent*")
            .order("title").limit(50).execute().value
    }

    func add(_ todo: NewTodo) async throws -> Todo {
        try await database.from("todos").insert(todo).select().single().execute().value
    }

    func addAll(_ todos: [NewTodo]) async throws -> [Todo] {
        try await database.from("todos").insert(todos, returning: .representation).execute().value
    }

    func complete(id: UUID) async throws -> Todo {
        try await database.from("todos").update(["is_complete": true]).eq("id", value: id).select().single()
            .execute().value
    }

    func rename(id: UUID, to title: String) async throws -> [Todo] {
        try await database.from("todos").update(["title": title], returning: .representation)
            .eq("id", value: id).execute().value
    }

    func save(_ todos: [Todo]) async throws {
        try await database.from("todos").upsert(todos, onConflict: "id").execute()
    }

    func remove(id: UUID) async throws {
        try await database.from("todos").delete().eq("id", value: id).execute()
    }

    func removeCompleted() async throws -> Int {
        try await database.from("todos").delete(count: .exact).eq("is_complete", value: true).execute().count
            ?? 0
    }

    func stats() async throws -> TodoStats {
        try await database.rpc("todo_stats").execute().value
    }

    func stats(since: Date) async throws -> TodoStats {
        try await database.rpc("todo_stats_since", params: ["since": since]).execute().value
    }
}
