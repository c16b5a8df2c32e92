import Foundation

/// A task as the sample's app decodes and writes it.
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
