/// The first stage of a live read: pairs an answer of the read's own refresh with the report that
/// carries it, so readers get the answer's rows and the state its refresh ends in together. Pure:
/// no `await`, no state but its own.
///
/// An answer's rows wait for the report that carries its serial, and a report waits for the
/// facts that hold its answer (whichever arrives first waits for the other). While an answer
/// waits, the stage passes ``PairedFacts/holding(_:)`` and the composer lays nothing: the facts
/// that brought the answer cost no composition, and the answer is composed once, with its report.
struct AnswerPairing: Sendable {
    let key: String
    /// The newest answer written when the read started: later ones are the server's answers to
    /// this read.
    let startAnswers: Int
    /// Names this read's own refresh in the answers it writes (``AnswerStamp/refreshOf``): an
    /// answer asked by an earlier read of the same query, still under way when this one began,
    /// is not this read's to wait for.
    let refreshID: String

    private var report = RefreshReport.starting
    /// Whether facts were passed on: with nothing shown yet, an answer shows at once rather than
    /// the queued writes over no rows.
    private var passedAny = false
    /// The serial of the answer whose list was passed on last (`nil`: none).
    private var passedAnswer: Int?

    /// A stage for the live read of `key`, started when the newest answer was `startAnswers`,
    /// whose refresh stamps its answers with `refreshID`.
    init(key: String, startAnswers: Int, refreshID: String) {
        self.key = key
        self.startAnswers = startAnswers
        self.refreshID = refreshID
    }

    /// The facts and report to compose, or that the last snapshot stands while an answer waits.
    mutating func pair(_ facts: TableFacts, _ latest: RefreshReport) -> PairedFacts {
        if latest.answer <= facts.answers { report = latest }
        let answer = facts.awaitingLists ? nil : facts.lists[key]?.answer
        if passedAny, let answer, answer.refreshOf == refreshID, answer.serial > startAnswers,
            answer.serial > report.answer, answer.serial != passedAnswer
        {
            return .holding(report)
        }
        passedAny = true
        passedAnswer = answer?.serial
        return .ready(facts, report)
    }
}

/// What the pairing stage passes to the composer.
enum PairedFacts: Sendable {
    /// Facts to compose, with the refresh's report that goes with them.
    case ready(TableFacts, RefreshReport)
    /// The read's own answer waits for its report: the last snapshot stands, with the refresh's
    /// state as `report` gives it.
    case holding(RefreshReport)
}
