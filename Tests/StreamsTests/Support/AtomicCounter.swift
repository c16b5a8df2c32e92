import Synchronization

/// A shareable atomic integer.
final class AtomicCounter: Sendable {
    private let atomic = Atomic<Int>(0)

    var value: Int { atomic.load(ordering: .sequentiallyConsistent) }

    func add() {
        atomic.add(1, ordering: .sequentiallyConsistent)
    }
}
