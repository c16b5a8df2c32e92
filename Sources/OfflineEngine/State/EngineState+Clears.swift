import Foundation

/// The clears: everything, or one user's data.
extension EngineState {
    /// Wipes cached lists, the queue, the replay log, rejected writes and the stored session, and
    /// refuses every answer whose request left before now. All of it leaves this state before the
    /// first `await`: a write picked before fails its ticket's check (never sent), and an answer
    /// arriving while the clear waits for its tick is refused.
    func clearLocalData() async throws {
        outputs.session.send(.signedOut)
        ownership.beginClear()
        outputs.ticketGate.void()
        // The store runs its work in call order: the clear wipes the writes handed to it before,
        // exactly those in the queue now. A write queued while the clear runs is kept.
        let wiped = queue.all.map(\.mutation.id)
        queue.removeAll()
        outputs.departures.left(wiped)
        outputs.marks.forget()
        tables.feedLog.forget()
        tables.wipe(owner: overlayOwner)
        outputs.rejected.wipe()
        publishQueue()
        services.liveReads.markStale(table: nil)
        defer { settled() }
        do {
            ownership.clearedAt = try await store.clearAll()
        } catch {
            // The wipe may have committed (only the log's truncation failed): answers from
            // before now stay refused, later ones are written again.
            ownership.clearedAt = outputs.marks.nextTick()
            throw error
        }
    }

    /// Wipes one user's data: the lists of their cache, their queued, replayed and rejected
    /// writes, their accepted ids, and their stored session. Other users' data stays.
    ///
    /// The user signed in now, or whose cache is shown, is signed out and their cache left as a
    /// full clear leaves it (``clearLocalData()``): from before the first `await`, every answer
    /// whose request left before is refused and no write picked before is sent. Another user's
    /// data is neither shown nor sent now: it leaves memory and the store alone.
    func clearLocalData(user: String) async throws {
        // Their write under way (sent at once, or waiting for an earlier one) is wiped with
        // the rest: not sent, and not queued again when its request fails.
        ownership.beginClear(ofUser: user)
        guard ownership.owner == user || outputs.session.value.userID == user else {
            forgetData(of: user)
            try await store.clear(user: user)
            return
        }
        if outputs.session.value.userID == user { outputs.session.send(.signedOut) }
        ownership.beginClear()
        outputs.ticketGate.void()
        forgetData(of: user)
        tables.unloadLists(owner: overlayOwner)
        services.liveReads.markStale(table: nil)
        defer { settled() }
        do {
            ownership.clearedAt = try await store.clear(user: user)
        } catch {
            ownership.clearedAt = outputs.marks.nextTick()
            await CachedLists.loadOfLiveReads(in: self)
            throw error
        }
        await CachedLists.loadOfLiveReads(in: self)
    }

    /// Takes `user`'s queued, replayed and rejected writes out of memory; the store loses them
    /// in the clear that follows, handed to it with no `await` between.
    private func forgetData(of user: String) {
        let wiped = queue.removeAll(ownedBy: user)
        outputs.departures.left(wiped.map(\.id))
        tables.forgetWrites(of: user, owner: overlayOwner)
        outputs.rejected.wipe(user: user)
        publishQueue()
    }

    /// Tells everything that depends on the session that it settled.
    func settled() {
        publishOwner()
        outputs.signals.sessionChanged()
    }
}
