import Foundation

@testable import OfflineEngine

/// What tests read of a client beyond its public streams: its store (what is on the device),
/// every owner's rejected writes, how many readers hold a live read, and two points to
/// interleave with (a write waiting behind one sent at once, `close()` begun).
extension OfflineClient {
    /// The client's engine; the client must be open (made with `try await OfflineClient(...)`, or
    /// after `open()`).
    var engine: Engine {
        guard let engine = opening.current else { preconditionFailure("the client's store is not open") }
        return engine
    }

    /// The client's store.
    var store: Store { engine.store }

    /// Every rejected write, every owner's.
    var allRejected: [RejectedMutation] { engine.outputs.rejected.facts.value.all }

    /// How many readers hold the live read of `key`.
    func liveReaders(of key: String) -> Int {
        engine.liveReads.readers(of: key)
    }

    /// Whether a write waits behind one of its owner's that is being sent at once.
    var writeWaitsBehindImmediateSend: Bool {
        engine.immediateSends.waiting > 0
    }

    /// Whether `close()` has begun.
    var isClosing: Bool { engine.calls.isClosed }
}
