import Foundation

extension EngineState {
    /// Wipes one user's data: the lists of their cache, their queued, replayed and rejected
    /// writes, their accepted ids, and their stored session. Other users' data stays.
    ///
    /// The user signed in now, or whose cache is shown, is signed out and their cache left as a
    /// full clear leaves it (``clearLocalData()``): from before the first `await`, every answer
    /// whose request left before is refused and no write picked before is sent. Another user's
    /// data is neither shown nor sent now: it leaves memory and the store alone.
    func clearLocalData(user: String) async throws {
        guard ownership.owner == user || session.value.userID == user else {
            forgetData(of: user)
            try await store.clear(user: user)
            return
        }
        if session.value.userID == user { session.send(.signedOut) }
        ownership.beginClear()
        ticketGate.void()
        forgetData(of: user)
        tables.unloadLists(owner: overlayOwner)
        liveReads.markStale(table: nil, reason: .clear)
        defer { settled() }
        do {
            ownership.clearedAt = try await store.clear(user: user)
        } catch {
            ownership.clearedAt = marks.nextTick()
            await loadListsOfLiveReads()
            throw error
        }
        await loadListsOfLiveReads()
    }

    /// Takes `user`'s queued, replayed and rejected writes out of memory; the store loses them
    /// in the clear that follows, handed to it with no `await` between.
    private func forgetData(of user: String) {
        _ = queue.removeAll(ownedBy: user)
        tables.forgetWrites(of: user, owner: overlayOwner)
        rejected.wipe(user: user)
        publishQueue()
    }
}
