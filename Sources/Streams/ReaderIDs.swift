/// Hands out the ids of a holder's readers, each id once, so a reader can be found and removed.
@usableFromInline
struct ReaderIDs: Sendable {
    @usableFromInline var next: UInt64 = 0

    @inlinable
    init() {}

    @inlinable
    mutating func take() -> UInt64 {
        defer { next += 1 }
        return next
    }
}
