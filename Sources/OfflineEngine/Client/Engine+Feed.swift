extension Engine {
    /// Follows a change feed of `tables` until it ends: changes are laid into the cached lists,
    /// held while the feed is not subscribed; each "subscribed" fetches the tables' lists again.
    func follow<Changes: AsyncSequence & Sendable>(_ changes: Changes, tables: [TableID]) async throws
    where Changes.Element == ChangeFeedEvent {
        var following = FeedFollowing(tables: tables)
        feeds.wentDown(tables)
        // A feed no longer followed is not down: it stops counting.
        defer { if !following.isSubscribed { feeds.cameUp(tables) } }
        for try await event in changes {
            switch event {
            case .change(let change):
                if following.isSubscribed {
                    try await calls.underway { try await Answers.land(change, in: state) }
                } else {
                    following.hold(change)
                }
            case .subscribed:
                let (held, wasDown) = following.subscribe()
                if wasDown { feeds.cameUp(tables) }
                try await calls.underway {
                    for change in held { try await Answers.land(change, in: state) }
                    // Changes made while the feed was down never come: the lists ask again.
                    for table in tables {
                        try await CachedLists.markStale(table, in: state)
                        try await Answers.markSharingNameStale(with: table, in: state)
                    }
                }
            case .disconnected:
                if following.disconnect() { feeds.wentDown(tables) }
            }
        }
    }
}
