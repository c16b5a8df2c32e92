/// How PostgREST counts the rows a read or write matched (`Prefer: count=...`), as
/// supabase-swift's `CountOption`; the count arrives in the answer's `Content-Range` and is read
/// as ``ReadResponse/count`` or ``WriteResponse/count``.
///
/// ```swift
/// let open = try await client.from("tasks").select("*", head: true, count: .exact)
///     .eq("done", value: false).execute().count
/// ```
public struct CountOption: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The word sent after `count=`.
    public let rawValue: String

    /// A count option from its word.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A count option from a string literal.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// An exact `COUNT(*)`: slow on large tables.
    public static let exact: CountOption = "exact"
    /// The planner's estimate: fast, approximate.
    public static let planned: CountOption = "planned"
    /// Exact below PostgREST's `db-max-rows`, the planner's estimate above it.
    public static let estimated: CountOption = "estimated"
}

/// Which rows a write's answer carries (`Prefer: return=...`), as supabase-swift's
/// `PostgrestReturningOptions`.
///
/// Left out (`nil`), a write asks for its rows only when the app will read them: after
/// ``WriteQuery/select(_:)``, or when its `execute()` decodes a value (`let saved: [Task] = try
/// await ….execute().value`). Otherwise it sends `return=minimal`, so that a write nobody reads
/// the answer of (every replay of the queue) does not bring its rows back.
public struct PostgrestReturningOptions: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The word sent after `return=`.
    public let rawValue: String

    /// A returning option from its word.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A returning option from a string literal.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// Nothing comes back (`return=minimal`).
    public static let minimal: PostgrestReturningOptions = "minimal"
    /// The written rows come back, every column (`return=representation`).
    public static let representation: PostgrestReturningOptions = "representation"
}
