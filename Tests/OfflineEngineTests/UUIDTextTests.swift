import Foundation
import Testing

@testable import OfflineEngine

@Suite("UUID text", .timeLimit(.minutes(10)))
struct UUIDTextTests {
    @Test("the lower-case text is Foundation's, lowercased, for any UUID")
    func matchesFoundation() {
        for _ in 0..<2_000 {
            let id = UUID()
            #expect(id.lowercasedText == id.uuidString.lowercased())
        }
        let fixed = UUID(uuidString: "7F3C2A9E-0B1D-4C5E-9A8F-123456789ABC")!
        #expect(fixed.lowercasedText == "7f3c2a9e-0b1d-4c5e-9a8f-123456789abc")
    }
}
