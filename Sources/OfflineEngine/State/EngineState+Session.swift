import Foundation

extension EngineState {
    /// Ends the restore with the session read back, unless the app signed in or out meanwhile
    /// (its word wins); `nil`: a restore that could not finish, the session stands as it is and
    /// nothing may wait for it forever.
    func endRestore(_ restored: SessionState?) async {
        guard !closed else { return }
        if let restored {
            guard session.value == .restoring else { return }
            session.send(restored)
            // Under a cache per user, the restored session's cache is shown (a signed-out one,
            // the signed-out cache). A store that fails here leaves answers refused, as a clear's.
            if sharing == .perUser, ownership.owner != restored.userID {
                let owner = await changeOwner(to: restored.userID)
                _ = try? await store.account.record(AccountChange(owner: owner))
            }
        }
        settled()
    }

    /// Takes a session from the app. A different user than the cache's owner changes the cache
    /// (``changeOwner(to:)``): answers to requests that left before are not written. Owner-less
    /// queued writes become this user's.
    func signIn(_ newSession: AuthSession) async throws {
        // Before any await: a request built from now on carries the new token, and one built
        // before read its tick before the new owner's tick below.
        session.send(.signedIn(newSession))
        // The store's side of the sign-in is one commit: the new owner, the session, the claim.
        var change = AccountChange(session: .some(newSession), claimingFor: newSession.userID)
        if ownership.owner != newSession.userID {
            change.owner = await changeOwner(to: newSession.userID)
        }
        if try await store.account.record(change) > 0 {
            // Owner-less queued writes become this user's, as the store made them.
            ticketGate.void()
            let changed = queue.claimOwnerless(for: newSession.userID)
            tables.claimOwnerless(in: changed, for: newSession.userID, owner: overlayOwner)
            publishQueue()
        }
        settled()
    }

    /// Signs in the user of a token the token provider gave, unless the client is closing.
    func adopt(_ newSession: AuthSession) async throws {
        guard !closed else { throw ClientError.closed }
        try await signIn(newSession)
    }

    /// Takes a fresh token of the signed-in user (from the token provider): the session carries
    /// it from now on and is stored with it, and a session that waited for a token is signed in
    /// again (the replay waiting for it wakes, unless the token is the one it waited with). A
    /// token of anyone else is not taken here.
    func acceptToken(_ token: String, expiresAt: Date?, for user: String) async {
        guard !closed, let current = session.value.authSession, current.userID == user else { return }
        var updated = current
        // A new token brings its own expiry (none, for a token that names none); the same token
        // keeps the session's unless it names one.
        if token != current.accessToken || expiresAt != nil { updated.expiresAt = expiresAt }
        updated.accessToken = token
        let wasWaiting = session.value.isWaitingForToken
        guard updated != current || wasWaiting else { return }
        session.send(.signedIn(updated))
        // Only a token other than the one the session waited with wakes the replay and the reads:
        // the token the server refused, offered again, is tried on their schedule (woken at once,
        // each refusal led straight to the next, and a write used up its attempts in a second).
        if wasWaiting && token != current.accessToken { signals.sessionChanged() }
        // Stored so that an offline start carries the newest token; a sign-in that ran meanwhile
        // stores its own session after this one (the store runs its work in call order).
        try? await store.account.setSession(updated)
    }

    /// Marks the signed-in session as waiting for a token, while it is still `user`'s with the
    /// token that was refused (`nil`: none could be had, whichever token it holds). A refusal of
    /// a token the session no longer carries (the user signed in again meanwhile) changes
    /// nothing. Shown on the session stream.
    func waitForToken(user: String, refused token: String?) {
        guard case .signedIn(let current) = session.value, current.userID == user,
            token == nil || current.accessToken == token
        else { return }
        session.send(.waitingForToken(current))
    }

    /// Forgets the session. Under ``CacheSharing/perUser`` the signed-out cache is shown and the
    /// user's own waits for them; under ``CacheSharing/handOver`` the cache keeps its owner and
    /// the next user to sign in takes it over.
    func signOut() async throws {
        session.send(.signedOut)
        var change = AccountChange(session: .some(nil))
        if sharing == .perUser, ownership.owner != nil {
            change.owner = await changeOwner(to: nil)
        }
        try await store.account.record(change)
        settled()
    }

    /// Tells everything that depends on the session that it settled.
    func settled() {
        publishOwner()
        signals.sessionChanged()
    }

    /// Changes whose cache is shown: answers already under way are not written, and every live
    /// read fetches again. Under ``CacheSharing/perUser`` the lists held are dropped and the new
    /// owner's own are read from the store; under ``CacheSharing/handOver`` the cache passes to
    /// the new owner, every list marked stale. All of it changes in memory before the first
    /// `await`, so no facts ever lay one user's lists under another's session. Returns what the
    /// store must record, which the caller hands to it with no `await` between (under
    /// ``CacheSharing/handOver`` the lists move in call order: a read of them handed to the store
    /// before reads them again, from the new owner's cache).
    private func changeOwner(to owner: String?) async -> AccountChange.Owner {
        let change = ownership.beginOwnerChange()
        switch sharing {
        case .perUser:
            ownership.owner = owner
            ownership.listsGeneration += 1
            tables.unloadLists(owner: overlayOwner)
        case .handOver:
            // Until fetched with the new owner's token, the rows are the previous owner's cache.
            tables.passToNewOwner(owner: overlayOwner)
        }
        liveReads.markStale(table: nil, reason: .newOwner)
        if sharing == .perUser { await loadListsOfLiveReads() }
        let tick = marks.nextTick()
        ownership.endOwnerChange(change, at: tick)
        guard sharing == .handOver else { return AccountChange.Owner(user: owner) }
        let handedFrom = ownership.partition
        ownership.owner = owner
        ownership.listsGeneration += 1
        return AccountChange.Owner(user: owner, handOver: (from: handedFrom, to: ownership.partition))
    }

    /// Reads the lists of the live reads held now from the cache shown now, after the lists in
    /// memory were dropped (their snapshots wait meanwhile): a read kept open through a change of
    /// cache would otherwise wait for lists that only a read starting again loads. A list the
    /// store cannot give stays missing, as for a read that starts now.
    func loadListsOfLiveReads() async {
        for query in liveReads.queries() {
            try? await loadLists(of: TableID(query), for: query.canonicalKey)
        }
        tables.endAwaitingLists(owner: overlayOwner)
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
        feedLog.forget()
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
            ownership.clearedAt = marks.nextTick()
            throw error
        }
    }
}
