import Foundation

/// One query parameter as PostgREST reads it: name and value decoded.
struct QueryPair: Hashable, Comparable, CustomStringConvertible {
    var name: String
    var value: String

    static func < (lhs: QueryPair, rhs: QueryPair) -> Bool {
        (lhs.name, lhs.value) < (rhs.name, rhs.value)
    }

    var description: String { name + "=" + value }
}
