import Foundation

/// The session's events, run on ``EngineState``'s isolation: the restore ending, a sign-in, a
/// token taken or refused, a sign-out, and the change of whose cache is shown that a sign-in or
/// a sign-out may bring.
enum SessionEvents {
    /// Ends the restore with the session read back, unless the app signed in or out meanwhile
    /// (its word wins); `nil`: a restore that could not finish, the session stands as it is and
    /// nothing may wait for it forever.
    static func endRestore(_ restored: SessionState?, in state: isolated EngineState) async {
        guard !state.closed else { return }
        if let restored {
            guard state.outputs.session.value == .restoring else { return }
            state.outputs.session.send(restored)
            // Under a cache per user, the restored session's cache is shown (a signed-out one,
            // the signed-out cache). A store that fails here leaves answers refused, as a clear's.
            if state.rules.sharing == .perUser, state.ownership.owner != restored.userID {
                let (owner, change) = beginOwnerChange(to: restored.userID, in: state)
                _ = try? await record(AccountChange(owner: owner), endingOwnerChange: change, in: state)
            }
        }
        state.settled()
    }

    /// Takes a session from the app. A different user than the cache's owner changes the cache
    /// (``changeOwner(to:in:)``): answers to requests that left before are not written. Owner-less
    /// queued writes become this user's.
    static func signIn(_ newSession: AuthSession, in state: isolated EngineState) async throws {
        // Before any await: a request built from now on carries the new token, and one built
        // before read its tick before the new owner's tick below.
        state.outputs.session.send(.signedIn(newSession))
        // Settled whatever the store does: a failed commit still leaves the new user's session
        // in memory, and what is shown must be theirs.
        defer { state.settled() }
        // The store's side of the sign-in is one commit: the new owner, the session, the claim.
        // Handed to the store before any await, so that the store keeps session changes in the
        // order they were made (a sign-out called meanwhile is stored after it, not before).
        var change = AccountChange(session: .some(newSession), claimingFor: newSession.userID)
        var ownerChange: Int?
        if state.ownership.owner != newSession.userID {
            (change.owner, ownerChange) = beginOwnerChange(to: newSession.userID, in: state)
        }
        if try await record(change, endingOwnerChange: ownerChange, in: state) > 0 {
            // Owner-less queued writes become this user's, as the store made them.
            state.outputs.ticketGate.void()
            let changed = state.queue.claimOwnerless(for: newSession.userID)
            state.tables.claimOwnerless(in: changed, for: newSession.userID, owner: state.overlayOwner)
            state.publishQueue()
        }
    }

    /// Signs in the user of a token the token provider gave, unless the client is closing.
    static func adopt(_ newSession: AuthSession, in state: isolated EngineState) async throws {
        guard !state.closed else { throw ClientError.closed }
        try await signIn(newSession, in: state)
    }

    /// Takes a fresh token of the signed-in user (from the token provider): the session carries
    /// it from now on and is stored with it, and a session that waited for a token is signed in
    /// again (the replay waiting for it wakes, unless the token is the one it waited with). A
    /// token of anyone else is not taken here.
    static func acceptToken(
        _ token: String, expiresAt: Date?, for user: String, in state: isolated EngineState
    ) async {
        guard !state.closed, let current = state.outputs.session.value.authSession, current.userID == user
        else { return }
        var updated = current
        // A new token brings its own expiry (none, for a token that names none); the same token
        // keeps the session's unless it names one.
        if token != current.accessToken || expiresAt != nil { updated.expiresAt = expiresAt }
        updated.accessToken = token
        let wasWaiting = state.outputs.session.value.isWaitingForToken
        guard updated != current || wasWaiting else { return }
        state.outputs.session.send(.signedIn(updated))
        // Only a token other than the one the session waited with wakes the replay and the reads:
        // the token the server refused, offered again, is tried on their schedule (woken at once,
        // each refusal led straight to the next, and a write used up its attempts in a second).
        if wasWaiting && token != current.accessToken { state.outputs.signals.sessionChanged() }
        // Stored so that an offline start carries the newest token; a sign-in that ran meanwhile
        // stores its own session after this one (the store runs its work in call order).
        try? await state.store.account.setSession(updated)
    }

    /// Marks the signed-in session as waiting for a token, while it is still `user`'s with the
    /// token that was refused (`nil`: none could be had, whichever token it holds). A refusal of
    /// a token the session no longer carries (the user signed in again meanwhile) changes
    /// nothing. Shown on the session stream.
    static func waitForToken(user: String, refused token: String?, in state: isolated EngineState) {
        guard case .signedIn(let current) = state.outputs.session.value, current.userID == user,
            token == nil || current.accessToken == token
        else { return }
        state.outputs.session.send(.waitingForToken(current))
    }

    /// Forgets the session. Under ``CacheSharing/perUser`` the signed-out cache is shown and the
    /// user's own waits for them; under ``CacheSharing/handOver`` the cache keeps its owner and
    /// the next user to sign in takes it over.
    static func signOut(in state: isolated EngineState) async throws {
        state.outputs.session.send(.signedOut)
        defer { state.settled() }
        var change = AccountChange(session: .some(nil))
        var ownerChange: Int?
        if state.rules.sharing == .perUser, state.ownership.owner != nil {
            (change.owner, ownerChange) = beginOwnerChange(to: nil, in: state)
        }
        // Handed to the store before any await, as a sign-in's is.
        _ = try await record(change, endingOwnerChange: ownerChange, in: state)
    }

    /// Changes whose cache is shown: answers already under way are not written, and every live
    /// read fetches again. Under ``CacheSharing/perUser`` the lists held are dropped and the new
    /// owner's own are read from the store (``finishOwnerChange(_:in:)``); under
    /// ``CacheSharing/handOver`` the cache passes to the new owner, every list marked stale. All
    /// of it changes in memory with no `await`, so no facts ever lay one user's lists under
    /// another's session. Returns what the store must record, which the caller hands to it with
    /// no `await` between (under ``CacheSharing/handOver`` the lists move in call order: a read
    /// of them handed to the store before reads them again, from the new owner's cache), and the
    /// change's number for ``finishOwnerChange(_:in:)``.
    private static func beginOwnerChange(to owner: String?, in state: isolated EngineState) -> (
        AccountChange.Owner, Int
    ) {
        let change = state.ownership.beginOwnerChange()
        switch state.rules.sharing {
        case .perUser:
            state.ownership.owner = owner
            state.ownership.listsGeneration += 1
            state.tables.unloadLists(owner: state.overlayOwner)
            state.services.liveReads.markStale(table: nil)
            return (AccountChange.Owner(user: owner), change)
        case .handOver:
            // Until fetched with the new owner's token, the rows are the previous owner's cache.
            state.tables.passToNewOwner(owner: state.overlayOwner)
            state.services.liveReads.markStale(table: nil)
            state.ownership.endOwnerChange(change, at: state.outputs.marks.nextTick())
            let handedFrom = state.ownership.partition
            state.ownership.owner = owner
            state.ownership.listsGeneration += 1
            return (
                AccountChange.Owner(user: owner, handOver: (from: handedFrom, to: state.ownership.partition)),
                change
            )
        }
    }

    /// Hands `change` to the store (called with no `await` since the session changed, so the
    /// store keeps session changes in call order), then ends owner change `number`, if any,
    /// whether or not the store took the change; returns what the store answered.
    private static func record(
        _ change: AccountChange, endingOwnerChange number: Int?, in state: isolated EngineState
    ) async throws(StoreError) -> Int {
        let recorded: Result<Int, StoreError>
        do { recorded = .success(try await state.store.account.record(change)) } catch {
            recorded = .failure(error)
        }
        if let number { await finishOwnerChange(number, in: state) }
        return try recorded.get()
    }

    /// Ends owner change `number` (begun by ``beginOwnerChange(to:in:)``): under
    /// ``CacheSharing/perUser`` the new owner's lists of the live reads are read from the store,
    /// then answers are written again (those that left before are refused).
    private static func finishOwnerChange(_ number: Int, in state: isolated EngineState) async {
        guard state.rules.sharing == .perUser else { return }
        await CachedLists.loadOfLiveReads(in: state)
        state.ownership.endOwnerChange(number, at: state.outputs.marks.nextTick())
    }
}
