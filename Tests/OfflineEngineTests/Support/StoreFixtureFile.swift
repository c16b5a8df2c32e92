import Foundation

@testable import OfflineEngine

/// A checked-in store file of one schema version and the manifest of what the code of that
/// version wrote in it (`Fixtures/store-v<version>.sqlite` and `.json`, made by
/// `scripts/make-store-fixtures.sh`).
struct StoreFixtureFile: Sendable {
    /// Tests/OfflineEngineTests/Fixtures, found from this file's place in the sources.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures", isDirectory: true)

    let version: Int

    /// What the code of its version wrote, table by table.
    func manifest() throws -> StoreDump {
        try StoreDump.manifest(Data(contentsOf: Self.folder.appendingPathComponent("store-v\(version).json")))
    }

    /// A copy of the file as a store folder's database in a new folder, so a test never changes
    /// the checked-in file; the caller removes the folder.
    func copy() throws -> URL {
        let folder = temporaryStoreFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.folder.appendingPathComponent("store-v\(version).sqlite"),
            to: folder.appendingPathComponent(Storage.fileName))
        return folder
    }
}
