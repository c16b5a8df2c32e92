import Foundation

/// A fresh folder for one test's store, under the system's temporary directory.
func temporaryStoreFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("store-tests-\(UUID().uuidString)")
}
