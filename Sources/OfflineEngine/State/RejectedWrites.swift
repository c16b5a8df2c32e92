import Foundation
import Streams

/// The writes the server refused, every owner's, kept until the app dismisses them, as a
/// keep-newest stream of ``RejectedFacts``.
///
/// A write reaches them from ``ReplayEvents/settleRejected(_:refusal:in:)``, which moves it out of
/// the queue in the same store transaction; dismissing one touches nothing else, so it needs
/// no actor.
struct RejectedWrites: Sendable {
    let store: Store
    let primaryKeys: PrimaryKeys
    let facts = StateBroadcast<RejectedFacts, Never>(RejectedFacts())

    /// Reads back the rejected writes the store keeps.
    func load() async throws {
        let rejected = try await store.rejected.all().map { RejectedMutation($0, primaryKeys: primaryKeys) }
        facts.update { $0.all = rejected }
    }

    /// A write the store has just moved from the queue to the rejected writes.
    func add(_ write: RejectedWrite) {
        let rejected = RejectedMutation(write, primaryKeys: primaryKeys)
        facts.update { $0.all.append(rejected) }
    }

    /// Dismisses a rejected write the app has shown.
    func dismiss(_ id: UUID) async throws {
        _ = try await store.rejected.dismiss(id)
        facts.update { $0.all.removeAll { $0.id == id } }
    }

    /// Forgets a rejected write the store has put back in the queue.
    func remove(_ id: UUID) {
        facts.update { $0.all.removeAll { $0.id == id } }
    }

    /// Shows `owner`'s rejected writes (and owner-less ones).
    func show(owner: String?) {
        facts.update { $0.owner = owner }
    }

    /// Forgets every rejected write, as the store's clear did.
    func wipe() {
        facts.update { $0.all = [] }
    }

    /// Forgets the rejected writes of `user`, as the store's clear of their data did.
    func wipe(user: String) {
        facts.update { $0.all.removeAll { $0.ownerID == user } }
    }

    /// Ends the stream.
    func finish() {
        facts.finish()
    }
}
