import Foundation

/// Runs `body` with `folder` for a store's files, then removes the folder and all a store wrote
/// in it, whether `body` returns or throws.
func withStoreFolder<Result>(
    _ folder: URL, isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> Result
) async rethrows -> Result {
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}
