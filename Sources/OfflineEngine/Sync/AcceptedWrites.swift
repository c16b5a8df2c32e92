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
    private let accepted = Mutex<[UUID]>([])
    private let arrived = Signal()
    private let wake: Signal.Subscription

    init() {
        wake = arrived.subscribe()
    }

    /// One more accepted write, in the run's order.
    func add(_ id: UUID) {
        accepted.withLock { $0.append(id) }
        arrived.fire()
    }

    /// No more writes will be added; ``settle(into:)`` ends once the last are settled.
    func finish() {
        arrived.finish()
    }

    /// Settles accepted writes as they come, until ``finish()`` and the last of them.
    func settle(into state: EngineState) async {
        for await _ in wake {
            await state.settleAccepted(take())
        }
        await state.settleAccepted(take())
    }

    private func take() -> [UUID] {
        accepted.withLock { ids in
            defer { ids = [] }
            return ids
        }
    }
}
