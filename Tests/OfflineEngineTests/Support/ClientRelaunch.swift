import Foundation
import OfflineEngineTesting

@testable import OfflineEngine

extension ClientFixture {
    /// The app launched again on `folder` and `server`, signed in by nobody at launch: its
    /// session restore waits until `gate` opens, then gives what `restore` gives.
    static func relaunched(
        in folder: URL, server: InMemoryPostgREST, restoringAfter gate: Gate,
        _ restore: @escaping @Sendable () async throws -> AuthSession?
    ) async throws -> ClientFixture {
        try await ClientFixture(
            storage: .directory(folder), signedInAs: nil, server: server, probe: ServerProbe()
        ) {
            $0.restoreSession = {
                await gate.wait()
                return try await restore()
            }
        }
    }
}
