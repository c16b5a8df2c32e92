/// Records the isolation the consumer passed down to the base iterator.
struct IsolationProbe: AsyncSequence, Sendable {
    typealias Element = Bool
    typealias Failure = Never

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining = 3

        mutating func next() async -> Bool? {
            nil
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Bool? {
            guard remaining > 0 else {
                return nil
            }
            remaining -= 1
            return actor === MainActor.shared
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator()
    }
}
