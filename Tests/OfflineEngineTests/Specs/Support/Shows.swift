import OfflineEngine

/// What a snapshot (or a one-shot read) must show; a field left `nil` is not checked.
struct Shows: Sendable, CustomStringConvertible {
    /// The refresh state's case, without `Stalled`'s cause.
    enum Refresh: Sendable, Equatable { case idle, refreshing, paused, stalled }

    /// The rows' `column` values, in order, as text.
    var column = "id"
    var values: [String]?
    var fromCache: Bool?
    var pending: Bool?
    var refresh: Refresh?
    /// `true`: the snapshot has no result at all (nothing cached yet).
    var noResult: Bool?
    /// Ids the rows must include, whatever else they hold.
    var includes: [Int]?
    /// Text the `Stalled` cause's raw detail must hold (a status, a code).
    var stalledBy: String?
    /// Text the `Stalled` cause's description must not hold (a URL, a filter value, a token).
    var hiding: [String]?

    init(
        ids: [Int]? = nil, fromCache: Bool? = nil, pending: Bool? = nil, refresh: Refresh? = nil,
        noResult: Bool? = nil, includes: [Int]? = nil, stalledBy: String? = nil, hiding: [String]? = nil
    ) {
        self.values = ids?.map(String.init)
        self.includes = includes
        self.stalledBy = stalledBy
        self.hiding = hiding
        self.fromCache = fromCache
        self.pending = pending
        self.refresh = refresh
        self.noResult = noResult
    }

    init(
        _ column: String, _ values: [String], fromCache: Bool? = nil, pending: Bool? = nil,
        refresh: Refresh? = nil
    ) {
        self.column = column
        self.values = values
        self.fromCache = fromCache
        self.pending = pending
        self.refresh = refresh
    }

    static let idle = Shows(refresh: .idle)
    static let paused = Shows(refresh: .paused)
    static let stalled = Shows(refresh: .stalled)
    static let refreshing = Shows(refresh: .refreshing)

    func matches(_ snapshot: QuerySnapshot) -> Bool {
        if let noResult, noResult != (snapshot.result == nil) { return false }
        if let values, snapshot.result == nil || snapshot.column(column) != values { return false }
        if let fromCache, snapshot.isFromCache != fromCache { return false }
        if let pending, snapshot.hasPendingMutations != pending { return false }
        if let refresh, Self.refresh(of: snapshot.refresh) != refresh { return false }
        if let includes, !Set(includes.map(String.init)).isSubset(of: snapshot.column("id")) { return false }
        return matchesCause(of: snapshot.refresh)
    }

    private func matchesCause(of state: RefreshState) -> Bool {
        guard stalledBy != nil || hiding != nil else { return true }
        guard case .stalled(let cause) = state else { return false }
        if let stalledBy, !String(describing: cause.underlying).contains(stalledBy) { return false }
        let shown = cause.description + (cause.errorDescription ?? "")
        return !(hiding ?? []).contains { shown.contains($0) }
    }

    func matches(_ fetched: FetchResult) -> Bool {
        if let values, fetched.rows.map({ $0[column]?.rawValue ?? "-" }) != values { return false }
        if let fromCache, fetched.isFromCache != fromCache { return false }
        if let pending, fetched.hasPendingMutations != pending { return false }
        return true
    }

    static func refresh(of state: RefreshState) -> Refresh {
        switch state {
        case .idle: .idle
        case .refreshing: .refreshing
        case .paused: .paused
        case .stalled: .stalled
        }
    }

    /// A snapshot in the same terms, for failure messages.
    static func describe(_ snapshot: QuerySnapshot?, column: String = "id") -> String {
        guard let snapshot else { return "no snapshot" }
        let rows = snapshot.result == nil ? "no result" : "\(snapshot.column(column))"
        var cause = ""
        if case .stalled(let failure) = snapshot.refresh { cause = " (\(failure.underlying))" }
        return
            "\(column)s \(rows), fromCache \(snapshot.isFromCache), pending \(snapshot.hasPendingMutations), "
            + "refresh \(refresh(of: snapshot.refresh))\(cause)"
    }

    var description: String {
        var parts: [String] = []
        if let values { parts.append("\(column)s \(values)") }
        if let noResult { parts.append("noResult \(noResult)") }
        if let fromCache { parts.append("fromCache \(fromCache)") }
        if let pending { parts.append("pending \(pending)") }
        if let refresh { parts.append("refresh \(refresh)") }
        if let includes { parts.append("including \(includes)") }
        if let stalledBy { parts.append("stalled by \(stalledBy)") }
        if let hiding { parts.append("cause hiding \(hiding)") }
        return parts.joined(separator: ", ")
    }
}
