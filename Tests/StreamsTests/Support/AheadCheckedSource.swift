import Synchronization

/// A never-suspending upstream of pulls `1, 2, 3, …` (until its task is cancelled) that checks, at
/// every pull, how far it runs ahead of its consumer: pulling element `n` before the consumer
/// recorded element `n - 1 - ahead` is a violation. The check sits where the pull happens, so a
/// bound test needs no yields or waits to give an upstream the chance to run ahead.
struct AheadCheckedSource: AsyncSequence, Sendable {
    typealias Failure = Never

    /// One pulled element: which source pulled it, and its place in that source.
    struct Element: Sendable, Equatable {
        let source: Int
        let index: Int
    }

    let id: Int
    let ahead: Int
    private let ledger = Ledger()

    /// How many elements were pulled.
    var pulled: Int { ledger.pulled.load(ordering: .sequentiallyConsistent) }
    /// How many pulls came too far ahead of the consumer.
    var violations: Int { ledger.violations.load(ordering: .sequentiallyConsistent) }

    init(id: Int, ahead: Int) {
        self.id = id
        self.ahead = ahead
    }

    /// Records that the consumer received `element` of this source.
    func consumed(_ element: Element) {
        precondition(element.source == id, "recorded on the wrong source")
        ledger.consumed.max(element.index, ordering: .sequentiallyConsistent)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: AheadCheckedSource

        mutating func next() async -> Element? {
            source.pull()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            source.pull()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self)
    }

    private func pull() -> Element? {
        if Task.isCancelled {
            return nil
        }
        let index = ledger.pulled.add(1, ordering: .sequentiallyConsistent).newValue
        if ledger.consumed.load(ordering: .sequentiallyConsistent) < index - 1 - ahead {
            ledger.violations.add(1, ordering: .sequentiallyConsistent)
        }
        return Element(source: id, index: index)
    }

    private final class Ledger: Sendable {
        let pulled = Atomic<Int>(0)
        let consumed = Atomic<Int>(0)
        let violations = Atomic<Int>(0)
    }
}
