import Dispatch
import Synchronization

/// A row type that notes, for each row decoded, whether it was decoded on the main queue (where
/// the main actor runs its work), told by a queue-specific value set on the main queue.
struct MainQueueProbeRow: Decodable, Sendable {
    private static let key = DispatchSpecificKey<Bool>()
    private static let decoded = Mutex<[Bool]>([])

    var id: Int

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        Self.decoded.withLock { $0.append(Self.isOnMainQueue) }
    }

    private enum CodingKeys: String, CodingKey { case id }

    /// Marks the main queue, so `isOnMainQueue` can tell it; forgets the rows decoded so far.
    static func start() {
        DispatchQueue.main.setSpecific(key: key, value: true)
        decoded.withLock { $0 = [] }
    }

    /// Whether the caller runs on the main queue.
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: key) == true }

    /// For each row decoded since `start()`, whether on the main queue.
    static var decodedOnMainQueue: [Bool] { decoded.withLock { $0 } }
}
