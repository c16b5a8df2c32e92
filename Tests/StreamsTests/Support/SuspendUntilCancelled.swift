import Synchronization

/// Suspends the current task until it is cancelled.
func suspendUntilCancelled() async {
    let slot = CancellationSlot()
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            slot.park(continuation)
        }
    } onCancel: {
        slot.cancel()
    }
}

private final class CancellationSlot: Sendable {
    private let state = Mutex<(cancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>(
        (false, nil))

    func park(_ continuation: CheckedContinuation<Void, Never>) {
        let cancelled = state.withLock { state -> Bool in
            if state.cancelled {
                return true
            }
            state.continuation = continuation
            return false
        }
        if cancelled {
            continuation.resume()
        }
    }

    func cancel() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.cancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
