import Synchronization

/// One settle shared by every observable model that wakes at the same time: a burst of writes
/// wakes many models at once (ten readers of each of ten lists), and each of them settling on
/// its own would put a hundred yielding tasks on the global executor beside the writers. The
/// pacer runs one **drive** (``settleYields`` yields) at a time and releases every model that
/// was waiting when it started; a model that arrives during a drive waits for the next one, so
/// each still lets the writers run for a whole drive before it takes its newest value.
///
/// ```swift
/// await SettlePacer.shared.settle()  // returns after one whole drive
/// ```
final class SettlePacer: Sendable {
    /// The pacer the observable models share.
    static let shared = SettlePacer()

    /// How many times a drive yields.
    static let settleYields = 64

    private struct State {
        /// Whether a model is driving now.
        var driving = false
        /// The models released when the running drive ends (they arrived before it started).
        var joined: [CheckedContinuation<Bool, Never>] = []
        /// The models that arrived during the running drive: the next drive is theirs.
        var arrived: [CheckedContinuation<Bool, Never>] = []
    }

    private let state = Mutex(State())

    /// Returns after one whole drive has run since the call: the caller drives it when no
    /// drive is running, and otherwise waits for the next drive to end.
    func settle() async {
        let drives = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now = state.withLock { state in
                if state.driving {
                    state.arrived.append(continuation)
                    return false
                }
                state.driving = true
                return true
            }
            if now { continuation.resume(returning: true) }
        }
        if drives { await drive() }
    }

    /// Runs one drive for the models that arrived before it, releases them, and hands the next
    /// drive to one of the models that arrived meanwhile (or ends driving).
    @concurrent
    private func drive() async {
        state.withLock { state in
            state.joined = state.arrived
            state.arrived = []
        }
        for _ in 0..<Self.settleYields { await Task.yield() }
        let (released, nextDriver) = state.withLock { state in
            let released = state.joined
            state.joined = []
            if state.arrived.isEmpty {
                state.driving = false
                return (released, CheckedContinuation<Bool, Never>?.none)
            }
            return (released, state.arrived.removeFirst())
        }
        for model in released { model.resume(returning: false) }
        nextDriver?.resume(returning: true)
    }
}
