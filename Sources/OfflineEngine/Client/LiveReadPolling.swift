import Foundation

extension ReadQuery {
    /// A live read (``snapshots()``) that is also fetched again every `interval` while it is
    /// read, for lists that should follow the server without a change feed: an Idle read starts
    /// Refreshing at each tick (one already refreshing goes on), so changes made on other
    /// devices show within about `interval`. Off unless asked for, per read; the ticks run on the
    /// client's clock and stop when the reader stops.
    ///
    /// ```swift
    /// for try await snapshot in client.from("tasks").select().snapshots(refreshingEvery: .seconds(30)) {
    ///     show(snapshot)
    /// }
    /// ```
    ///
    /// Offline a tick fetches nothing: the read stays Paused until the network returns, and
    /// fetches then as every live read does.
    public func snapshots(refreshingEvery interval: Duration) -> AsyncThrowingStream<QuerySnapshot, Error> {
        guard let client else {
            return AsyncThrowingStream { $0.finish(throwing: ClientError.closed) }
        }
        return client.snapshots(of: query, refreshingEvery: interval)
    }
}

extension OfflineClient {
    /// Fetches every live read again now (those being read, on any screen): for an app coming
    /// back to the foreground, whose lists may have changed on the server meanwhile. Offline it
    /// does nothing (the reads fetch when the network returns).
    ///
    /// ```swift
    /// .onChange(of: scenePhase) { _, phase in
    ///     if phase == .active { Task { try? await supabase.refreshLiveReads() } }
    /// }
    /// ```
    public func refreshLiveReads() async throws {
        let engine = try await openedEngine()
        engine.liveReads.markStale(keys: engine.liveReads.keys)
        // A read waiting on its retry schedule (a stalled one waits up to a minute) fetches now
        // too: a stale mark alone leaves a pending retry to its time.
        engine.liveReads.tryNow()
    }

    /// The live read of `query`, marked stale every `interval` on the client's clock while read.
    func snapshots(of query: QueryDescription, refreshingEvery interval: Duration)
        -> AsyncThrowingStream<QuerySnapshot, Error>
    {
        let snapshots = snapshots(of: query)
        let background: BackgroundWork
        do {
            background = try opening.background()
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: QuerySnapshot.self, bufferingPolicy: .bufferingNewest(1))
        let (opening, clock, key) = (opening, configuration.clock, query.canonicalKey)
        background.forward(until: continuation) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    guard let engine = try? await opening.engine() else { return }
                    while (try? await clock.sleep(for: interval)) != nil {
                        engine.liveReads.markStale(keys: [key])
                    }
                }
                do {
                    for try await snapshot in snapshots { continuation.yield(snapshot) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
                // The read ended, or its reader stopped: the ticks end with it.
                group.cancelAll()
            }
        }
        return stream
    }
}
