/// A filter's answer for one row in Postgres's three-valued logic, where the engine adds
/// "can't tell offline" to SQL's NULL: both are ``unknown``.
public enum Truth: Sendable, Hashable {
    /// The server would return the row.
    case `true`
    /// The server would not return the row.
    case `false`
    /// The answer depends on something the engine cannot see (a column's type, an operator it
    /// does not evaluate, a column the row does not carry) or is SQL NULL.
    case unknown
}
