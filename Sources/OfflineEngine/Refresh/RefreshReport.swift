/// What a refresh reports after each change of state and each attempt: the state, and the latest
/// answer its attempts wrote to the cache, so a live read shows that answer's rows and the state
/// the attempt ended in together.
struct RefreshReport: Sendable, Hashable {
    /// Where the refresh stands.
    var state: RefreshState
    /// The serial of the newest answer one of its attempts wrote (`0`: none yet); see
    /// `FetchAnswer.answer`.
    var answer: Int

    /// The report a refresh starts from: asking, nothing answered.
    static let starting = RefreshReport(state: .refreshing, answer: 0)
}

/// What one refresh attempt brought: what became of the answer, and, when it was written, the
/// serial the cache gave it (every written answer gets a larger one).
struct FetchAnswer: Sendable, Hashable {
    /// What became of the answer.
    var outcome: FetchOutcome
    /// The written answer's serial, or `nil` when nothing was written.
    var answer: Int?

    /// An attempt's result from its parts.
    init(_ outcome: FetchOutcome, answer: Int? = nil) {
        self.outcome = outcome
        self.answer = answer
    }
}
