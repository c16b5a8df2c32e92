import OfflineEngine

/// The app's words for what the client reports, as the reference's sample says them.
enum SyncWords {
    /// The Sync line: the task list's refresh, in words.
    static func sync(_ refresh: RefreshState?, signedIn: Bool) -> String {
        guard signedIn else { return "Waits for the first sign-in" }
        switch refresh ?? .refreshing {
        case .idle: return "Up to date with the server"
        case .refreshing: return "Asking the server…"
        case .paused: return "Paused while offline"
        case .stalled: return "Can’t reach the server — showing saved data"
        }
    }

    /// The network as the client sees it.
    static func network(_ state: Connectivity) -> String {
        switch state {
        case .online: return "network: online"
        case .offline: return "network: offline"
        case .unknown: return "network: unknown"
        }
    }

    /// Why the server refused a write, in the app's words: never the server's own message,
    /// which may quote the row.
    static func refusal(_ rejected: RejectedMutation) -> String {
        switch rejected.error.code {
        case "23514": return "a task needs a title"
        case "23505": return "a task with this id already exists"
        case "42501": return "you may not change this task"
        case RejectedMutation.mayHaveBeenAppliedCode:
            return "it may already be saved; check before trying again"
        default: return "the server refused it"
        }
    }
}
