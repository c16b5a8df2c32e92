import Foundation

extension Engine {
    /// The access token requests carry now, or `nil` to send the API key.
    var accessToken: String? { session.value.authSession?.accessToken }

    /// The user whose writes are laid over lists and replayed now.
    var currentUser: String? { session.value.userID }

    /// The user whose queued writes are laid over the lists: the signed-in user, or while the
    /// stored session is read back, the cache's owner (whose session it most likely is).
    var overlayOwner: String? { session.value == .restoring ? cacheOwner : currentUser }

    /// Takes a session from the app. A different user than the cache's owner takes the cache
    /// over: every list is marked stale and fetched again with the new token, and answers to
    /// requests that left before are not written. Owner-less queued writes become this user's.
    func signIn(_ newSession: AuthSession) async throws {
        try await underway {
            // Before any await: a request built from now on carries the new token, and one built
            // before read its tick before the new owner's tick below.
            session.send(.signedIn(newSession))
            if cacheOwner != newSession.userID {
                try await passCache(to: newSession.userID)
            }
            try await store.setSession(newSession)
            if try await store.claimUnownedWrites(for: newSession.userID) > 0 {
                for index in queue.indices where queue[index].mutation.ownerID == nil {
                    queue[index].mutation.ownerID = newSession.userID
                }
            }
            settleSession()
        }
    }

    /// Forgets the session. The cache keeps its owner; the next user to sign in takes it over.
    func signOut() async throws {
        try await underway {
            session.send(.signedOut)
            try await store.setSession(nil)
            settleSession()
        }
    }

    /// Passes the cache to a new owner: answers already under way are not written, and every
    /// cached list is marked stale so its live readers fetch again.
    private func passCache(to owner: String?) async throws {
        ownerChangedAt = try await nextTick()
        _ = try await store.markAllStale()
        try await store.setOwner(owner)
        cacheOwner = owner
        for key in lists.keys { lists[key]?.isStale = true }
        for read in live.values {
            // Until fetched with the new owner's token, the rows are the previous owner's cache.
            live[read.key]?.answered = false
            read.refresher.markStale(.newOwner)
        }
    }

    /// Wipes cached lists, the queue, the replay log, rejected writes and the stored session,
    /// and refuses every answer whose request left before now.
    ///
    /// Everything the clear wipes leaves the engine before its first `await`: a write picked for
    /// sending before it fails its ticket's check (the clear epoch moved, the write is no longer
    /// queued), so a cleared write is never sent, and an answer arriving while the clear waits
    /// for its tick is refused (`clearedAt` reads "now" until the tick is known).
    func clearLocalData() async throws {
        try await underway {
            session.send(.signedOut)
            clearEpoch += 1
            clearedAt = .max
            // The store runs its work in call order: the clear wipes the writes handed to it
            // before, which are exactly those in the queue now (a write joins the queue and is
            // handed to the store at once). A write queued while the clear runs is kept.
            queue = []
            replayLog = [:]
            rejected = []
            lists = [:]
            loadedTables = []
            marks = [:]
            folds = [:]
            cacheOwner = nil
            publishRejected()
            for read in live.values {
                live[read.key]?.answered = false
                read.refresher.markStale(.clear)
            }
            publishAll()
            publishQueueCount()
            defer { settleSession() }
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
}
