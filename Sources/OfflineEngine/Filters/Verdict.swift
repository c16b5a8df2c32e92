/// SQL's three-valued answer plus "can't tell offline", kept apart while a filter tree is
/// combined, because Postgres combines a NULL and an answer the engine cannot work out
/// differently: `NOT NULL` is NULL (the row stays out) but `NOT <can't tell>` is still
/// can't tell.
enum Verdict: Sendable, Hashable {
    /// SQL TRUE.
    case `true`
    /// SQL FALSE.
    case `false`
    /// SQL NULL: the row is left out, and `NOT` keeps it NULL.
    case null
    /// Any of TRUE, FALSE or NULL: the engine cannot tell which offline.
    case undecided

    /// `NOT self` in Kleene logic.
    var negated: Verdict {
        switch self {
        case .true: return .false
        case .false: return .true
        case .null, .undecided: return self
        }
    }

    /// `self AND other`: FALSE wins, then can't tell, then NULL.
    func and(_ other: Verdict) -> Verdict {
        if self == .false || other == .false { return .false }
        if self == .undecided || other == .undecided { return .undecided }
        if self == .null || other == .null { return .null }
        return .true
    }

    /// `self OR other`: TRUE wins, then can't tell, then NULL.
    func or(_ other: Verdict) -> Verdict {
        if self == .true || other == .true { return .true }
        if self == .undecided || other == .undecided { return .undecided }
        if self == .null || other == .null { return .null }
        return .false
    }

    /// Whether the server returns the row: only TRUE keeps it, so NULL reads as false.
    var truth: Truth {
        switch self {
        case .true: return .true
        case .false, .null: return .false
        case .undecided: return .unknown
        }
    }
}
