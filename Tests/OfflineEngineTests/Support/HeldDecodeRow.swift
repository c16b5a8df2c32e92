import Dispatch
import Synchronization

/// A row type whose decoding of the row with id `heldID` waits until the test lets it go, so a
/// test can act while a model decodes; every other row decodes at once.
struct HeldDecodeRow: Decodable, Sendable, Equatable {
    static let heldID = -1
    private static let release = DispatchSemaphore(value: 0)
    /// Rows with `heldID` that began decoding.
    static let entered = AsyncLog<Int>()

    var id: Int

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        if id == Self.heldID {
            Self.entered.append(id)
            // A guard, not a pause: a test that never lets go fails instead of hanging.
            _ = Self.release.wait(timeout: .now() + 30)
        }
    }

    private enum CodingKeys: String, CodingKey { case id }

    /// Lets the held row's decoding finish.
    static func letGo() { release.signal() }
}
