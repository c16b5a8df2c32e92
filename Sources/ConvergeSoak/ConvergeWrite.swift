import Foundation

/// One write a converge client made, as its log tells it: what it changed, as whom, in which
/// place of its device's order, and what `execute()` said.
public struct ConvergeWrite: Sendable, Hashable {
    /// What the write does to its row.
    public enum Kind: String, Sendable {
        case insert, update, delete
    }

    /// What `execute()` said.
    public enum Outcome: Sendable, Hashable {
        /// The call has not returned (the process was killed during it): the write may have
        /// been queued or sent, or not.
        case begun
        /// Sent and accepted at once.
        case sent
        /// Durably queued.
        case queued
        /// The call threw (every write of the soak is valid for its owner: never expected).
        case threw(String)

        /// The call returned: the write must be applied exactly once.
        public var isAcknowledged: Bool { self == .sent || self == .queued }
    }

    /// The device's running number: its writes' order, across users and relaunches.
    public var n: Int
    public var kind: Kind
    /// The row's key, a UUID in lower case.
    public var id: String
    /// The user the write was made as.
    public var owner: String
    /// The value an insert or update sets: unique to the write (`<device>-<n>`); `nil` for a delete.
    public var tag: String?
    public var outcome: Outcome

    public init(n: Int, kind: Kind, id: String, owner: String, tag: String?, outcome: Outcome = .begun) {
        self.n = n
        self.kind = kind
        self.id = id
        self.owner = owner
        self.tag = tag
        self.outcome = outcome
    }

    /// The tag of the write numbered `n` on `device`.
    public static func tag(device: String, n: Int) -> String { "\(device)-\(n)" }
}
