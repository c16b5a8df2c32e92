import Synchronization

/// Which batches of a replay run are settled, when the requests of several tables may be in
/// flight at once (``ReplayBatching/tablesInFlight``), and why the run stopped, if it did.
///
/// A batch sent before every earlier one was settled overtook it; a refusal of that batch may
/// be caused by the order alone (a foreign key naming a row not yet written), so the replay
/// keeps it queued instead of rejecting it.
final class ReplayOrder: Sendable {
    private struct Progress {
        var settled: [Bool]
        /// The first batch not settled: every batch before it is.
        var firstUnsettled = 0
        /// Set by the first table that stopped the pass: no table starts another batch.
        var stopped = false
        /// Why the pass must stop, from the first table that stopped it.
        var end: ReplayPassEnd?
    }

    private let progress: Mutex<Progress>

    init(batches: Int) {
        progress = Mutex(Progress(settled: Array(repeating: false, count: batches)))
    }

    /// Whether every batch before `index` is settled.
    func allSettled(before index: Int) -> Bool {
        progress.withLock { $0.firstUnsettled >= index }
    }

    /// The batch at `index` is settled: its writes accepted or rejected.
    func settle(_ index: Int) {
        progress.withLock { progress in
            progress.settled[index] = true
            while progress.firstUnsettled < progress.settled.count,
                progress.settled[progress.firstUnsettled]
            {
                progress.firstUnsettled += 1
            }
        }
    }

    /// A table stopped the pass for `end` (the first reason given wins): no table starts
    /// another batch.
    func stop(for end: ReplayPassEnd) {
        progress.withLock { progress in
            progress.stopped = true
            if progress.end == nil { progress.end = end }
        }
    }

    /// Whether a table stopped the pass.
    var isStopped: Bool { progress.withLock(\.stopped) }

    /// Why the pass must stop, or `nil` to go on.
    var end: ReplayPassEnd? { progress.withLock(\.end) }
}
