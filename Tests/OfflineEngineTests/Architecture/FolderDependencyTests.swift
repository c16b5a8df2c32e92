import Foundation
import Testing

/// The folders of the library depend on each other one way: each may name types of the folders
/// below it in the order `docs/architecture.md` gives, never of one above (so no two folders
/// depend on each other, directly or around a cycle).
@Suite("Folders depend one way, in the order the architecture document gives", .timeLimit(.minutes(10)))
struct FolderDependencyTests {
    /// The order written in `docs/architecture.md`, on its line `folders, lowest first: …`.
    static func documentedOrder() throws -> [String] {
        let url = SourceFolders.packageRoot.appendingPathComponent("docs/architecture.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let prefix = "folders, lowest first: "
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(prefix) })
        return line.dropFirst(prefix.count).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test("every folder of the library is in the documented order, once")
    func everyFolderIsPlaced() throws {
        let order = try Self.documentedOrder()
        let folders = try SourceFolders().folders
        #expect(order.sorted() == folders)
        #expect(Set(order).count == order.count)
    }

    @Test("no file names a type of a folder above its own")
    func noUseGoesUp() throws {
        let order = try Self.documentedOrder()
        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        let upward = try SourceFolders().uses.filter { use in
            guard let from = rank[use.folder], let to = rank[use.typeFolder] else { return true }
            return to > from
        }
        #expect(upward.isEmpty, "uses against the order: \(upward.map(\.description))")
    }

    @Test("the check sees uses: the facade names types of the folders below it")
    func checkSeesUses() throws {
        let uses = try SourceFolders().uses
        #expect(
            uses.contains { $0.folder == "Client" && $0.type == "EngineState" && $0.typeFolder == "State" })
        #expect(uses.count > 100)
    }
}
