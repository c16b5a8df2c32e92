import Foundation
import OfflineEngineTesting

@testable import OfflineEngine

extension ClientFixture {
    /// The app's first launch on `folder` and `server`, with the network known down, so its
    /// writes stay queued for a later launch to replay.
    static func offlineFirstLaunch(in folder: URL, server: InMemoryPostgREST) async throws -> ClientFixture {
        let fixture = try await ClientFixture(storage: .directory(folder), server: server)
        await fixture.client.disableNetwork()
        return fixture
    }
}
