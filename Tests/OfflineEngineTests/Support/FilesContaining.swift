import Foundation

/// The names of the files in `folder` whose raw bytes contain `text` (as UTF-8), sorted: what a
/// store leaves readable on disk, whichever file (database, log, anything else) holds it.
func filesContaining(_ text: String, in folder: URL) throws -> [String] {
    let needle = Data(text.utf8)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    return try names.sorted().filter { name in
        let bytes = try Data(contentsOf: folder.appendingPathComponent(name, isDirectory: false))
        return bytes.range(of: needle) != nil
    }
}
