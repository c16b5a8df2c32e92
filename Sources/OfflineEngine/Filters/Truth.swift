/// A filter's answer for one row: whether the server would return it, or "can't tell offline".
///
/// A SQL NULL result leaves the row out, so it is ``false``; ``unknown`` is only what the engine
/// cannot work out offline.
package enum Truth: Sendable, Hashable {
    /// The server would return the row.
    case `true`
    /// The server would not return the row.
    case `false`
    /// The answer depends on something the engine cannot see (a column's type, an operator it
    /// does not evaluate, a column the row does not carry).
    case unknown
}
