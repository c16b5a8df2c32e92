/// The shared state of one iteration that runs upstream work and must stop it when nobody can
/// read its results any more.
@usableFromInline
protocol IterationStorage: AnyObject, Sendable {
    /// Called when the last copy of the downstream iterator goes away.
    func iteratorDeinitialized()
}

/// Held by every copy of an iterator: when the last copy is dropped, its storage stops the
/// upstream work, since a dropped iterator cannot be cancelled any other way.
@usableFromInline
final class IterationHandle<Storage: IterationStorage>: Sendable {
    @usableFromInline let storage: Storage

    @inlinable
    init(storage: Storage) {
        self.storage = storage
    }

    deinit {
        storage.iteratorDeinitialized()
    }
}
