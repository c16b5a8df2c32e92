import Foundation

extension EngineState {
    /// Ends the restore with the session read back, unless the app signed in or out meanwhile
    /// (its word wins); `nil`: a restore that could not finish, the session stands as it is and
    /// nothing may wait for it forever.
    func endRestore(_ restored: SessionState?) {
        guard !closed else { return }
        if let restored {
            guard session.value == .restoring else { return }
            session.send(restored)
        }
        settled()
    }

    /// Takes a session from the app. A different user than the cache's owner takes the cache
    /// over: every list is marked stale and fetched again with the new token, and answers to
    /// requests that left before are not written. Owner-less queued writes become this user's.
    func signIn(_ newSession: AuthSession) async throws {
        // Before any await: a request built from now on carries the new token, and one built
        // before read its tick before the new owner's tick below.
        session.send(.signedIn(newSession))
        if ownership.owner != newSession.userID {
            try await passCache(to: newSession.userID)
        }
        try await store.account.setSession(newSession)
        if try await store.queue.claimUnownedWrites(for: newSession.userID) > 0 {
            // Owner-less queued writes become this user's, as the store made them.
            ticketGate.void()
            let changed = queue.claimOwnerless(for: newSession.userID)
            tables.claimOwnerless(in: changed, for: newSession.userID, owner: overlayOwner)
            publishQueue()
        }
        settled()
    }

    /// Forgets the session. The cache keeps its owner; the next user to sign in takes it over.
    func signOut() async throws {
        session.send(.signedOut)
        try await store.account.setSession(nil)
        settled()
    }

    /// Tells everything that depends on the session that it settled.
    private func settled() {
        publishOwner()
        signals.sessionChanged()
    }

    /// Passes the cache to a new owner: answers already under way are not written, and every
    /// cached list is marked stale so its live readers fetch again.
    private func passCache(to owner: String?) async throws {
        ownership.ownerChangedAt = try await marks.nextTick()
        _ = try await store.lists.markAllStale()
        try await store.account.setOwner(owner)
        ownership.owner = owner
        // Until fetched with the new owner's token, the rows are the previous owner's cache.
        tables.passToNewOwner(owner: overlayOwner)
        liveReads.markStale(table: nil, reason: .newOwner)
    }

    /// Wipes cached lists, the queue, the replay log, rejected writes and the stored session, and
    /// refuses every answer whose request left before now. All of it leaves this state before the
    /// first `await`: a write picked before fails its ticket's check (never sent), and an answer
    /// arriving while the clear waits for its tick is refused.
    func clearLocalData() async throws {
        session.send(.signedOut)
        ownership.beginClear()
        ticketGate.void()
        // The store runs its work in call order: the clear wipes the writes handed to it before,
        // exactly those in the queue now. A write queued while the clear runs is kept.
        queue.removeAll()
        marks.forget()
        tables.wipe(owner: overlayOwner)
        rejected.wipe()
        publishQueue()
        liveReads.markStale(table: nil, reason: .clear)
        defer { settled() }
        do {
            ownership.clearedAt = try await store.clearAll()
        } catch {
            // The wipe may have committed (only the log's truncation failed): answers from
            // before now stay refused, later ones are written again.
            ownership.clearedAt = (try? await marks.nextTick()) ?? .max
            throw error
        }
    }
}
