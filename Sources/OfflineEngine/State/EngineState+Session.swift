import Foundation

extension EngineState {
    /// The access token requests carry now, or `nil` to send the API key.
    var accessToken: String? { session.value.authSession?.accessToken }

    /// Settles the session to the one stored at the last sign-in (signed out when none is),
    /// unless the app signed in or out meanwhile (its word wins).
    func settleStoredSession() async {
        let stored = try? await store.account.session()
        guard !closed, session.value == .restoring else { return }
        session.send(stored.map(SessionState.signedIn) ?? .signedOut)
        settled()
    }

    /// Whether the session is still being read back (and the client open).
    var isRestoring: Bool { !closed && session.value == .restoring }

    /// Ends a restore that could not finish: the session stands as it is, and nothing may wait
    /// for it forever.
    func settleAfterFailedRestore() {
        guard !closed else { return }
        settled()
    }

    /// Takes a session from the app. A different user than the cache's owner takes the cache
    /// over: every list is marked stale and fetched again with the new token, and answers to
    /// requests that left before are not written. Owner-less queued writes become this user's.
    func signIn(_ newSession: AuthSession) async throws {
        // Before any await: a request built from now on carries the new token, and one built
        // before read its tick before the new owner's tick below.
        session.send(.signedIn(newSession))
        if cacheOwner != newSession.userID {
            try await passCache(to: newSession.userID)
        }
        try await store.account.setSession(newSession)
        if try await store.queue.claimUnownedWrites(for: newSession.userID) > 0 {
            claimUnowned(for: newSession.userID)
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
        sessionSettled.fire()
        replayWork.fire()
        replayUrgent.fire()
    }

    /// Owner-less queued writes become `owner`'s, as the store made them.
    private func claimUnowned(for owner: String) {
        var tablesChanged = Set<TableID>()
        for entry in queue.all where entry.mutation.ownerID == nil {
            queue.update(entry.mutation.id) { $0.mutation.ownerID = owner }
            tablesChanged.insert(TableID(entry.mutation))
        }
        tables.claimOwnerless(in: tablesChanged, for: owner, owner: overlayOwner)
        recountQueue()
    }

    /// Passes the cache to a new owner: answers already under way are not written, and every
    /// cached list is marked stale so its live readers fetch again.
    private func passCache(to owner: String?) async throws {
        ownerChangedAt = try await nextTick()
        _ = try await store.lists.markAllStale()
        try await store.account.setOwner(owner)
        cacheOwner = owner
        // Until fetched with the new owner's token, the rows are the previous owner's cache.
        tables.passToNewOwner(owner: overlayOwner)
        liveReads.markStale(table: nil, reason: .newOwner)
    }

    /// Wipes cached lists, the queue, the replay log, rejected writes and the stored session,
    /// and refuses every answer whose request left before now.
    ///
    /// Everything the clear wipes leaves this state before its first `await`: a write picked for
    /// sending before it fails its ticket's check (the clear epoch moved, the write is no longer
    /// queued), so a cleared write is never sent, and an answer arriving while the clear waits
    /// for its tick is refused (`clearedAt` reads "now" until the tick is known).
    func clearLocalData() async throws {
        session.send(.signedOut)
        clearEpoch += 1
        clearedAt = .max
        // The store runs its work in call order: the clear wipes the writes handed to it before,
        // which are exactly those in the queue now (a write joins the queue and is handed to the
        // store at once). A write queued while the clear runs is kept.
        queue.removeAll()
        marks = [:]
        cacheOwner = nil
        tables.wipe(owner: overlayOwner)
        rejectedFacts.update { $0.all = [] }
        recountQueue()
        liveReads.markStale(table: nil, reason: .clear)
        defer { settled() }
        // Handed to the store before any await: its order puts every write queued before the
        // clear in the wipe, and every one queued after it outside.
        do {
            clearedAt = try await store.clearAll()
        } catch {
            // The wipe may have committed (only the log's truncation failed): answers from
            // before now stay refused, later ones are written again.
            clearedAt = (try? await nextTick()) ?? .max
            throw error
        }
    }
}
