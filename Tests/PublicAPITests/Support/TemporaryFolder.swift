import Foundation

/// Runs `body` with a folder of its own in the temporary directory (`prefix-<UUID>`, not yet
/// made), removed once `body` returns or throws.
func withTemporaryFolder<Result>(_ prefix: String, _ body: (URL) async throws -> Result) async rethrows
    -> Result
{
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "\(prefix)-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}
