import Foundation

/// Why the local store could not be opened or used. The description is safe to show: it names no
/// file path and no stored data.
public enum StoreError: Error, Sendable, Hashable {
    /// The store file is damaged or is not a store file; the app can reset it with `Storage.reset()`.
    case corrupt
    /// The store file or its folder cannot be opened, read or created (permissions, a missing
    /// volume, an I/O error).
    case unreadable
    /// The store was written by a newer version of the app whose format this version cannot read.
    case newerSchema(found: Int, supported: Int)
    /// The device has no room left to save.
    case full
    /// The store was closed; no more work is accepted.
    case closed
    /// The store is already open in another process (or by another client in this one): only one
    /// may use it at a time.
    case inUse
    /// Another SQLite failure; `code` is SQLite's extended result code and `detail` its message,
    /// both for logs only.
    case failed(code: Int32, detail: String)
}

extension StoreError: CustomStringConvertible {
    /// A plain sentence about what went wrong, without paths or data.
    public var description: String {
        switch self {
        case .corrupt:
            return "The local data store is damaged and cannot be read; it can be reset."
        case .unreadable:
            return "The local data store cannot be opened or read."
        case .newerSchema(let found, let supported):
            return "The local data store was written by a newer version of the app "
                + "(format \(found), this version reads up to \(supported))."
        case .full:
            return "The device has no space left to save local data."
        case .closed:
            return "The local data store is closed."
        case .inUse:
            return "The local data store is already in use by another instance of the app."
        case .failed(let code, _):
            return "The local data store failed to complete an operation (SQLite code \(code))."
        }
    }
}

extension StoreError: LocalizedError {
    /// The same plain sentence as `description`.
    public var errorDescription: String? { description }
}
