import Foundation
import OfflineEngineTesting

@testable import OfflineEngine

extension ClientFixture {
    /// The app's first launch on `folder`, against a server holding `tables`, with the network
    /// known down, so its writes stay queued for a later launch to replay.
    static func offlineFirstLaunch(in folder: URL, tables: [String: [Row]]) async throws -> ClientFixture {
        let fixture = try await ClientFixture(
            storage: .directory(folder), server: InMemoryPostgREST(tables: tables))
        await fixture.client.disableNetwork()
        return fixture
    }
}
