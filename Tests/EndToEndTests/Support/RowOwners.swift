import Foundation
import OfflineEngine
import Synchronization

/// Every snapshot a live read shows from now until ``stop()``, kept as the `user_id` of each row
/// it held: whose rows a user was shown.
final class RowOwners: Sendable {
    private let owners = Mutex<(snapshots: Int, owners: [String])>((0, []))
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ client: OfflineClient, query: (OfflineClient) -> ReadQuery) {
        let snapshots = query(client).snapshots()
        let reading = Task { [self] in
            do {
                for try await snapshot in snapshots { record(snapshot) }
            } catch {}
        }
        task.withLock { $0 = reading }
    }

    private func record(_ snapshot: QuerySnapshot) {
        let seen = (snapshot.result?.rows ?? []).map { $0["user_id"]?.stringValue ?? "-" }
        owners.withLock {
            $0.snapshots += 1
            $0.owners += seen
        }
    }

    /// Stops reading; returns how many snapshots were shown and the owners of their rows.
    func stop() async -> (snapshots: Int, owners: [String]) {
        let reading = task.withLock { $0 }
        reading?.cancel()
        await reading?.value
        return owners.withLock { $0 }
    }
}
