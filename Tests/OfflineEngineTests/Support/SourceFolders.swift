import Foundation

/// The library's source read as text, folder by folder: which top-level types each folder
/// declares, and which of them each file names. Comments and string literals are left out, and a
/// name a file declares itself (a nested type) is its own.
struct SourceFolders {
    /// A file naming a type declared in another folder.
    struct Use: Hashable, CustomStringConvertible {
        let folder: String
        let file: String
        let type: String
        let typeFolder: String

        var description: String { "\(folder)/\(file) names \(type) (\(typeFolder))" }
    }

    /// The package's root, from this file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folders of `Sources/OfflineEngine` (the DocC catalog aside).
    let folders: [String]
    /// Every use of a type across folders.
    let uses: [Use]

    init() throws {
        let root = Self.packageRoot.appendingPathComponent("Sources/OfflineEngine")
        let manager = FileManager.default
        let folders = try manager.contentsOfDirectory(atPath: root.path)
            .filter { !$0.hasSuffix(".docc") && !$0.hasPrefix(".") }
            .sorted()
        var texts: [(folder: String, file: String, text: String)] = []
        for folder in folders {
            let files = try manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            for file in files.sorted() where file.hasSuffix(".swift") {
                let url = root.appendingPathComponent(folder).appendingPathComponent(file)
                texts.append((folder, file, Self.code(of: try String(contentsOf: url, encoding: .utf8))))
            }
        }
        let topLevel =
            #/(?m)^(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate|final|nonisolated|indirect)\s+)*(?:struct|class|actor|enum|protocol|typealias)\s+(\w+)/#
        let anyLevel = #/(?:struct|class|actor|enum|protocol|typealias)\s+(\w+)/#
        var declaredIn: [String: String] = [:]
        for text in texts {
            for match in text.text.matches(of: topLevel) where declaredIn[String(match.1)] == nil {
                declaredIn[String(match.1)] = text.folder
            }
        }
        var uses: Set<Use> = []
        for text in texts {
            let own = Set(text.text.matches(of: anyLevel).map { String($0.1) })
            let names = Set(text.text.matches(of: #/\b[A-Z]\w*\b/#).map { String($0.0) })
            for name in names.subtracting(own) {
                guard let folder = declaredIn[name], folder != text.folder else { continue }
                uses.insert(Use(folder: text.folder, file: text.file, type: name, typeFolder: folder))
            }
        }
        self.folders = folders
        self.uses = uses.sorted { $0.description < $1.description }
    }

    /// `text` without its comments and with its string literals emptied.
    static func code(of text: String) -> String {
        text.replacing(#///[^\n]*/#, with: "").replacing(#/"(?:\\.|[^"\\\n])*"/#, with: "\"\"")
    }
}
