import Foundation
import Synchronization

@testable import OfflineEngine

/// Lets a soak's writer give up its shared lease as soon as its write reaches the server, so
/// the next switch of user can race the rest of the call (the answer, queueing after a
/// failure, patching the cache). The owner was fixed before the request left, so the writer
/// still knows it.
///
/// Writes are recognised by a mark unique to each: an insert's or update's `value` (a tag
/// made for that write), a delete's row key (a row is deleted at most once).
final class UserSoakArrivals: Sendable {
    private let waiting = Mutex<[String: SharedLease.Ticket]>([:])

    static func mark(value: String) -> String { "value:\(value)" }
    static func mark(deleting key: String) -> String { "delete:\(key)" }

    /// Releases `ticket` when a write carrying `mark` arrives.
    func expect(_ mark: String, releasing ticket: SharedLease.Ticket) {
        waiting.withLock { $0[mark] = ticket }
    }

    /// Stops waiting for `mark` (the call ended).
    func forget(_ mark: String) {
        _ = waiting.withLock { $0.removeValue(forKey: mark) }
    }

    /// The server saw a write: releases the leases of the writes it carries.
    func arrived(_ sighting: RowSecurityServer.Sighting, valueColumn: String = "value") {
        let marks =
            sighting.method == .delete
            ? sighting.keys.map(Self.mark(deleting:))
            : sighting.rows.compactMap { $0[valueColumn]?.stringValue }.map(Self.mark(value:))
        let tickets = waiting.withLock { waiting in marks.compactMap { waiting.removeValue(forKey: $0) } }
        for ticket in tickets { ticket.release() }
    }
}
