import Synchronization

/// How a `ScriptedSequence` ends after its elements.
enum ScriptEnd: Sendable {
    case finish
    case fail(TestError)
    /// Suspends until the consuming task is cancelled, then finishes.
    case hang
    /// Never finishes without suspending: keeps yielding `Element`s made from a counter until cancelled.
    case count
}

/// A test upstream: yields fixed elements, then finishes, fails, hangs or keeps counting; counts
/// live iterators (incremented at creation, decremented when released) and pulled elements.
struct ScriptedSequence<Element: Sendable>: AsyncSequence, Sendable {
    typealias Failure = TestError

    let elements: [Element]
    let end: ScriptEnd
    let live: LiveCounter
    let pulled = AtomicCounter()
    let counted: @Sendable (Int) -> Element?

    init(_ elements: [Element], end: ScriptEnd = .finish, live: LiveCounter = LiveCounter()) {
        self.elements = elements
        self.end = end
        self.live = live
        self.counted = { $0 as? Element }
    }

    final class Token: Sendable {
        let live: LiveCounter

        init(live: LiveCounter) {
            self.live = live
            live.increment()
        }

        deinit {
            live.decrement()
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: ScriptedSequence
        let token: Token
        var index = 0

        mutating func next() async throws(TestError) -> Element? {
            if index < sequence.elements.count {
                index += 1
                sequence.pulled.add()
                return sequence.elements[index - 1]
            }
            switch sequence.end {
            case .finish:
                return nil
            case .fail(let error):
                throw error
            case .hang:
                await suspendUntilCancelled()
                return nil
            case .count:
                if Task.isCancelled {
                    return nil
                }
                index += 1
                sequence.pulled.add()
                return sequence.counted(index)
            }
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestError) -> Element? {
            try await next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self, token: Token(live: live))
    }
}
