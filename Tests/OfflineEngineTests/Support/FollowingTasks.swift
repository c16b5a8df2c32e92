import OfflineEngine
import OfflineEngineTesting

/// Runs `body` with a client whose server holds `rows` in `tasks` and which follows `feed` for
/// that table; then ends the feed, waits for the follow to return, and closes the client (the
/// shape every feed test shares, so each shows only its own steps).
func followingTasks(
    _ rows: [Row], _ body: (_ fixture: ClientFixture, _ feed: TestFeed) async throws -> Void
) async throws {
    let fixture = try await ClientFixture(tables: ["tasks": rows])
    let feed = TestFeed()
    async let follows: Void = fixture.client.follow(changes: feed.events, tables: ["tasks"])
    try await body(fixture, feed)
    feed.finish()
    try await follows
    await fixture.client.close()
}
