import Foundation

/// A channel as an app decodes it: the server makes `id` and `created_at`.
struct Channel: Decodable, Equatable {
    let id: UUID
    let name: String
    let createdAt: Date

    private enum CodingKeys: String, CodingKey {
        case id, name
        case createdAt = "created_at"
    }
}
