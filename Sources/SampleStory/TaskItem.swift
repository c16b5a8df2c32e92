import Foundation
import OfflineEngine

/// A task as the sample's app decodes it (and updates it by its `id`).
public struct TaskItem: Codable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var done: Bool

    public init(id: UUID = UUID(), title: String, done: Bool = false) {
        self.id = id
        self.title = title
        self.done = done
    }
}

/// A task as the app adds it: only its title. The device makes the rest (``tableSettings``), so
/// a task added offline decodes as a ``TaskItem`` in the list at once.
public struct NewTask: Encodable, Sendable {
    public var title: String

    public init(title: String) {
        self.title = title
    }

    /// The values the device makes for a new task: its `id` (sent, so the server keeps the same
    /// key), and `done`, sent too because the sample's in-memory server has no column defaults
    /// (a real table's `DEFAULT false` would leave it shown on the device only).
    public static let tableSettings: [String: TableSettings] = [
        "tasks": TableSettings(madeOnDevice: ["id": .uuid, "done": .constant(false).sent()])
    ]
}
