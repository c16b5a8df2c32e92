@testable import OfflineEngine

/// The two pure stages of a live read, chained as its pipeline chains them: facts and reports
/// paired (`AnswerPairing`), then composed (`SnapshotComposer`).
struct ComposedRead {
    var pairing: AnswerPairing
    var composer: SnapshotComposer

    /// The stages of a read of `query` started when the newest answer was `startAnswers`, whose
    /// refresh stamps its answers with `refreshID` (by default the query's key).
    init(query: QueryDescription, startAnswers: Int = 0, refreshID: String? = nil) {
        pairing = AnswerPairing(
            key: query.canonicalKey, startAnswers: startAnswers, refreshID: refreshID ?? query.canonicalKey)
        composer = SnapshotComposer(query: query, primaryKeys: PrimaryKeys(), startAnswers: startAnswers)
    }

    /// The snapshot the read composes for `facts` and `report`.
    mutating func compose(_ facts: TableFacts, _ report: RefreshReport) -> ComposedSnapshot {
        composer.compose(pairing.pair(facts, report))
    }
}
