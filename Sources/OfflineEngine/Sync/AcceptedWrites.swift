import Foundation
import Streams
import Synchronization

/// The writes of a replay run the server accepted, settled while the run goes on: each settle
/// commits every write accepted since the one before began.
///
/// With a server that answers slowly, each write settles one commit after its answer; with one
/// that answers at once, many settle in one commit. The run waits for ``settle(into:)`` to end
/// before the pass picks again, so no accepted write is picked twice.
final class AcceptedWrites: Sendable {
    private let accepted = Mutex<[(id: UUID, rows: [Row])]>([])
    private let arrived = Signal()
    private let wake: Signal.Subscription

    init() {
        wake = arrived.subscribe()
    }

    /// One more accepted write, with the rows the server sent back (none unless the write asked
    /// for them): in the run's order, or when tables overlap, in each table's order.
    func add(_ id: UUID, rows: [Row]) {
        accepted.withLock { $0.append((id, rows)) }
        arrived.fire()
    }

    /// No more writes will be added; ``settle(into:)`` ends once the last are settled.
    func finish() {
        arrived.finish()
    }

    /// Settles accepted writes as they come, until ``finish()`` and the last of them.
    func settle(into state: EngineState) async {
        for await _ in wake {
            await settle(take(), into: state)
        }
        await settle(take(), into: state)
    }

    private func settle(_ writes: [(id: UUID, rows: [Row])], into state: EngineState) async {
        var returned: [UUID: [Row]] = [:]
        for write in writes where !write.rows.isEmpty { returned[write.id] = write.rows }
        await ReplayEvents.settleAccepted(writes.map(\.id), returned: returned, in: state)
    }

    private func take() -> [(id: UUID, rows: [Row])] {
        accepted.withLock { writes in
            defer { writes = [] }
            return writes
        }
    }
}
