import Foundation

/// The bytes of every file in a store's folder (database, write-ahead log, anything else): what
/// the store takes on disk.
func storeFileBytes(in folder: URL) throws -> Int {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    return try names.reduce(0) { total, name in
        let path = folder.appendingPathComponent(name, isDirectory: false).path
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
        return total + (size?.intValue ?? 0)
    }
}
