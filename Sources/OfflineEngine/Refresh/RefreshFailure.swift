import Foundation
import Synchronization

/// The failure that stalled a refresh, described in plain words that are safe to show or log:
/// its ``description`` never carries the request's URL, filter values, tokens or row data.
///
/// The underlying error (which may carry all of those) stays available in ``underlying`` for
/// diagnostics. Two failures are equal only when they are the same failure (the same wrapping),
/// so a ``RefreshState/stalled(_:)`` state keeps comparing equal while its cause is kept.
public struct RefreshFailure: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The error the request failed with, kept for logs; its own description may hold the URL,
    /// filter values or row data, so do not show it to the user.
    public let underlying: any Error
    /// Plain words for the user that name no URL, filter value, token or row data.
    public let summary: String
    /// This failure's identity: equality and hashing use it, never the underlying error's text.
    private let identity: UInt64

    private static let counter = Atomic<UInt64>(0)

    /// Wraps `error`; `summary` should be safe words for the user (by default a generic phrase
    /// naming only the error's type).
    public init(_ error: any Error, summary: String? = nil) {
        self.underlying = error
        self.summary =
            summary ?? "The server could not be reached or did not answer (\(type(of: error)))."
        self.identity = Self.counter.add(1, ordering: .relaxed).newValue
    }

    /// The safe summary: no URL, filter value, token or row data.
    public var description: String { summary }

    /// The safe summary, for `localizedDescription`.
    public var errorDescription: String? { summary }

    /// Whether both are the same failure.
    public static func == (lhs: RefreshFailure, rhs: RefreshFailure) -> Bool {
        lhs.identity == rhs.identity
    }

    /// Hashes the failure's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }
}
