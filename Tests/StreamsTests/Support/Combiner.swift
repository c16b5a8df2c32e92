import Streams

/// The operators that run one task per upstream, for the tests they share: how each iterates two
/// scripted upstreams, as plain `Int`s (a combination is flattened in side order).
enum Combiner: CaseIterable, Sendable, CustomStringConvertible {
    case merge
    case combineLatest

    var description: String {
        switch self {
        case .merge: "merge"
        case .combineLatest: "combineLatest"
        }
    }

    /// Reads every element of the combined upstreams, calling `each` after each one; returns how
    /// many were read.
    func count(
        _ first: ScriptedSequence<Int>, _ second: ScriptedSequence<Int>, each: @Sendable () -> Void
    ) async throws -> Int {
        var count = 0
        switch self {
        case .merge:
            for try await _ in Streams.merge(first, second) {
                count += 1
                each()
            }
        case .combineLatest:
            for try await _ in Streams.combineLatest(first, second) {
                count += 1
                each()
            }
        }
        return count
    }

    /// Makes an iterator, reads its first element and drops the iterator.
    func firstElement(_ first: ScriptedSequence<Int>, _ second: ScriptedSequence<Int>) async throws -> [Int]?
    {
        switch self {
        case .merge:
            var iterator = Streams.merge(first, second).makeAsyncIterator()
            return try await iterator.next().map { [$0] }
        case .combineLatest:
            var iterator = Streams.combineLatest(first, second).makeAsyncIterator()
            return try await iterator.next().map { [$0.0, $0.1] }
        }
    }
}
