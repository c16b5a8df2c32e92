import Foundation

/// The app's row type the snippets decode and write (it shadows Swift's `Task` here, as an app's
/// model named `Task` would).
struct Task: Codable, Sendable, Hashable {
    var id: UUID
    var title: String
    var done: Bool
}
