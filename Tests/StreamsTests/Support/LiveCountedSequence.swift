/// Wraps any sendable sequence so that its live iterators are counted, like `ScriptedSequence`.
struct LiveCountedSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable {
    typealias Element = Base.Element
    typealias Failure = Base.Failure

    let base: Base
    let live: LiveCounter

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let token: ScriptedSequence<Int>.Token

        mutating func next() async throws(Failure) -> Element? {
            try await base.next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try await base.next(isolation: actor)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), token: ScriptedSequence<Int>.Token(live: live))
    }
}

extension AsyncSequence where Self: Sendable {
    /// Counts this sequence's live iterators in `live`.
    func counted(by live: LiveCounter) -> LiveCountedSequence<Self> {
        LiveCountedSequence(base: self, live: live)
    }
}
