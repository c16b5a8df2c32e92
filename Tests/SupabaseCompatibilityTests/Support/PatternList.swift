import OfflineEngine

/// supabase-swift's four filters on a list of patterns, each with the operator PostgREST reads
/// from it (`like(all)`, `like(any)`, `ilike(all)`, `ilike(any)`).
enum PatternList: String, CaseIterable, Sendable {
    case likeAllOf, likeAnyOf, iLikeAllOf, iLikeAnyOf

    /// The operator sent before the list of patterns.
    var sentOperator: String {
        switch self {
        case .likeAllOf: "like(all)"
        case .likeAnyOf: "like(any)"
        case .iLikeAllOf: "ilike(all)"
        case .iLikeAnyOf: "ilike(any)"
        }
    }

    /// Whether the filter ignores case (`ilike`).
    var ignoresCase: Bool { self == .iLikeAllOf || self == .iLikeAnyOf }

    /// `read` filtered on `column` matching `patterns` by this filter.
    func apply(to read: ReadQuery, _ column: String, patterns: [String]) -> ReadQuery {
        switch self {
        case .likeAllOf: read.likeAllOf(column, patterns: patterns)
        case .likeAnyOf: read.likeAnyOf(column, patterns: patterns)
        case .iLikeAllOf: read.iLikeAllOf(column, patterns: patterns)
        case .iLikeAnyOf: read.iLikeAnyOf(column, patterns: patterns)
        }
    }
}
