import Foundation
import Testing

@testable import OfflineEngine

/// `UUID.random()`: the ids of queued writes and the keys made on the device.
@Suite("Random UUIDs", .timeLimit(.minutes(10)))
struct UUIDRandomTests {
    @Test("10,000 are distinct version-4 UUIDs of the RFC 4122 variant, read back from their text")
    func versionFour() throws {
        let made = (0..<10_000).map { _ in UUID.random() }
        #expect(Set(made).count == made.count)
        for id in made {
            #expect(id.uuid.6 >> 4 == 4)
            #expect(id.uuid.8 >> 6 == 0b10)
            #expect(UUID(uuidString: id.lowercasedText) == id)
        }
    }
}
