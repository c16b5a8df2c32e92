/// A builder whose every call returns a changed copy (`single()`, `limit(_:)`, `select(_:)`), so
/// a query can be kept and extended freely; the copy is made here once, not in each call.
package protocol ChangedCopy {}

extension ChangedCopy {
    /// A copy of this value with `change` made to it.
    package func changing(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}
