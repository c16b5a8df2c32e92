import Foundation

extension Tables {
    /// The lists among `keys` (the live reads of `table`) that the writes which just synced,
    /// `settled`, make due for a fetch.
    ///
    /// An UPDATE that would move into a list a row another list read with other columns cannot
    /// lay it there (the overlay reference keeps such a row out, `Overlay`); once the server holds
    /// the UPDATE, the list is fetched again. Decided here, when the writes settle, rather than by
    /// the live reads that show the list, so their snapshots are derived with nothing flowing
    /// back. Only the writes that settled now count: a list already due from earlier writes was
    /// asked for then (a new live read fetches at its start anyway). Only an UPDATE moves a row
    /// into a list, so the caller asks only when one settled.
    func listsDueForFetch(
        of table: TableID, among keys: [String], settled: [Mutation], owner: String?,
        primaryKeys: PrimaryKeys
    ) -> Set<String> {
        let facts = facts(of: table, owner: owner)
        let settledIDs = Set(settled.map(\.id))
        var due: Set<String> = []
        for key in keys {
            guard let entry = facts.lists[key], !entry.isStale else { continue }
            let unseen = facts.unseenReplayed(after: entry.list.fetchTick)
            let earlier = unseen.filter { !settledIDs.contains($0.id) }
            guard earlier.count < unseen.count else { continue }
            let others = facts.lists(except: key)
            let isDue = { (replayed: [Mutation]) in
                OverlayFold<FilterEvaluator>(
                    list: entry.list, otherLists: others, primaryKeys: primaryKeys, replayed: replayed,
                    queued: [], related: facts.related
                )
                .result.refetchIsDue
            }
            if isDue(unseen) && !isDue(earlier) { due.insert(key) }
        }
        return due
    }
}
