import Streams

/// How many writes of each owner are being sent at once (offline-first writes that found nothing
/// of their owner queued). A later write of that owner waits until none is, so it cannot overtake
/// one that fails and joins the queue.
///
/// Counting up happens inside ``EngineState``'s step that decides to send (see
/// `ImmediateSendEvents.firstStep(for:in:)`); counting down and waiting need no actor.
struct ImmediateSends: Sendable {
    /// Per owner, the writes being sent (internal for the tests' hook).
    let counts = StateBroadcast<[String?: Int], Never>([:])

    /// Whether a write of `owner` is being sent at once.
    func isSending(for owner: String?) -> Bool {
        (counts.value[owner] ?? 0) > 0
    }

    /// One more write of `owner` is being sent.
    func begin(for owner: String?) {
        counts.update { $0[owner, default: 0] += 1 }
    }

    /// A write of `owner` sent at once has ended (sent, or queued); the next may go.
    func end(for owner: String?) {
        counts.update { sends in
            let count = (sends[owner] ?? 1) - 1
            sends[owner] = count > 0 ? count : nil
        }
    }

    /// Returns once no write of `owner` is being sent at once, or the counts are finished.
    func waitUntilNone(for owner: String?) async {
        for await sends in counts.values() where (sends[owner] ?? 0) == 0 { return }
    }

    /// Ends every wait.
    func finish() {
        counts.finish()
    }
}
