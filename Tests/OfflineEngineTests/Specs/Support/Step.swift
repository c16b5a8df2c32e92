import OfflineEngine

/// What a write's `execute()` must end in.
enum WriteEnd: Sendable {
    /// Sent and accepted (`.sent`).
    case sent
    /// Kept in the queue (`.queued`).
    case queued
    /// Throws.
    case fails
    /// Not awaited: the call runs on (its request hangs, say) while the scenario goes on.
    case inBackground
}

/// One step of a scenario: an event the app, the server or the world causes, or an
/// expectation the runner waits for (each wait fails after a few seconds instead of hanging).
enum Step: Sendable {
    // The app's calls.
    case write(SpecWrite, policy: WritePolicy = .offlineFirst, ends: WriteEnd)
    /// One insert per id into `tasks` (`{id, done: false}`), each its own write, each ending as said.
    case insertEach(ClosedRange<Int>, ends: WriteEnd)
    /// Opens a live read, named for the expectations about it.
    case live(String, SpecRead)
    /// Leaves a live read's loop.
    case stop(String)
    /// A one-shot `fetch()`, and what it returns (or `nil`: it throws).
    case fetch(SpecRead, Shows?)
    /// `refreshLiveReads()`: every live read is fetched again (the app returned to the foreground).
    case refreshLiveReads
    case signIn(String)
    case signOut
    case clear
    case dismissRejected
    /// `client.follow(changes:tables:)` on a feed the scenario drives.
    case follow([String])
    /// An event from the feed: another device's change, a (re)subscription, a disconnection.
    case feed(ChangeFeedEvent)

    // The world.
    /// The server answers the next `times` requests matching `Req` with `Answer`.
    case answer(Req, Answer, times: Int = 1)
    /// Requests held by `.hang` go on.
    case release
    /// The server's rows of a table change behind the client's back (another device).
    case serverRows(String, [Row])
    /// The network is known down (`disableNetwork()`, requests fail) / back up.
    case networkDown
    case networkUp
    /// The server cannot be reached while the network is believed up.
    case unreachable(Bool)
    /// Waits until something sleeps on the clock, then moves it on.
    case advance(Duration)
    /// Closes the client without draining and opens a new one on the same folder (disk only).
    case relaunch
    /// `close()`; the closed client stays for the steps after.
    case close

    // Expectations.
    /// Waits until the named live read shows a snapshot that matches (from its latest one on).
    case see(String, Shows)
    /// The named live read's first snapshot matched.
    case sawFirst(String, Shows)
    /// No snapshot the named read showed so far matched.
    case neverSaw(String, Shows)
    /// Waits until `count` requests matching were sent, then checks there are exactly that many.
    case sent(Req, Int)
    /// Waits until at least `count` requests matching were sent.
    case sentAtLeast(Req, Int)
    /// The queue holds `count` writes (all tables, the current user's view).
    case queue(Int)
    /// The current user's pending writes of a table touch these row ids, in order.
    case pending(String, [String])
    /// The rejected writes' error codes, in order.
    case rejected([String])
    /// The server's rows of a table, by id (waits until they match).
    case server(String, [Int])
    /// The clock's sleeps so far begin with these, in order (the next wait may already be asleep).
    case sleeps([Duration])
    /// The session settles on this user (`nil`: signed out).
    case session(String?)
    /// The client reports this connectivity.
    case connectivity(Connectivity)
    /// The named live read's stream has ended: finished with no error, or (`throwing`) with an
    /// error whose description holds that text.
    case ended(String, throwing: String? = nil)
}

extension Step {
    /// An insert of rows into `tasks`.
    static func insert(_ rows: Row..., ends: WriteEnd, policy: WritePolicy = .offlineFirst) -> Step {
        .write(SpecWrite(kind: .insert, table: "tasks", rows: rows), policy: policy, ends: ends)
    }

    /// Waits until the named read shows these ids.
    static func see(_ read: String, ids: [Int], pending: Bool? = nil, refresh: Shows.Refresh? = nil) -> Step {
        .see(read, Shows(ids: ids, pending: pending, refresh: refresh))
    }
}
