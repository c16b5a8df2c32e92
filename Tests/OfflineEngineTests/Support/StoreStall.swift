import Dispatch
import Foundation
import Synchronization

@testable import OfflineEngine

/// Holds a store's writer busy until released, so a test can let the engine reach a store call
/// and then change something (sign in, clear) before that call returns: the interleavings that
/// actor reentrancy allows, made deterministic.
final class StoreStall: Sendable {
    private let store: Store
    private let release = DispatchSemaphore(value: 0)
    private let engaged = Mutex(false)
    private let holder = Mutex<Task<Void, Never>?>(nil)

    init(_ store: Store) {
        self.store = store
    }

    /// Returns once the writer is blocked; every later store call waits behind it.
    func engage() async throws {
        let task = Task { [self] in
            _ = try? await store.perform(writes: false) { _ in
                self.engaged.withLock { $0 = true }
                self.release.wait()
            }
        }
        holder.withLock { $0 = task }
        try await eventually { [self] in engaged.withLock { $0 } }
    }

    /// Waits until at least `count` calls wait behind the stall.
    func waiting(atLeast count: Int) async throws {
        try await eventually { [store] in store.waitingCalls >= count }
    }

    /// Lets the writer go on, and returns once the blocking call has ended.
    func resume() async {
        release.signal()
        await holder.withLock { $0 }?.value
    }
}
