/// Errors of the client itself, as opposed to the server's or the network's.
public enum ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client was closed; open a new one.
    case closed
    /// An online-only write or a function call was asked for while the network is known to be
    /// down.
    case offline
    /// The local data was cleared while this call was under way.
    case cleared
    /// A write asked for one row (`single()`) was queued, but the device does not hold exactly
    /// one row it changed, so there is no row to return yet. The write is saved and will sync:
    /// do not write it again.
    case queuedWithoutRow
    /// `retry(_:)` named a write that is not among the rejected writes (retried or discarded
    /// already), or one whose stored copy could not be read, which cannot be sent.
    case notRejected
    /// A read found the network down and nothing saved on this device for it: it has never been
    /// answered here (or its list was cleared or evicted). It needs the network once.
    case notCached

    public var description: String {
        switch self {
        case .closed: return "The offline client was closed."
        case .offline: return "The network is unavailable, and this call is online only."
        case .cleared: return "The local data was cleared while the request was under way."
        case .notRejected: return "There is no rejected change with this id that can be sent again."
        case .notCached:
            return "Nothing is saved on this device for this read yet; it needs the network once."
        case .queuedWithoutRow:
            return
                "The change is saved on the device and will sync, but the row it changed is not on the device to show."
        }
    }
}
