#if canImport(UIKit) && !os(watchOS)
    // Apple platforms only: never compiled on the Linux machines this library is built and
    // tested on (the README says so).
    import UIKit

    extension OfflineClient {
        /// Fetches every live read again each time the app comes back to the foreground, until
        /// the calling task is cancelled: opt in by running it for the app's lifetime.
        ///
        /// ```swift
        /// WindowGroup { ContentView() }
        ///     .task { await supabase.refreshLiveReadsOnForeground() }
        /// ```
        @MainActor
        public func refreshLiveReadsOnForeground() async {
            let returns = NotificationCenter.default.notifications(
                named: UIApplication.willEnterForegroundNotification)
            for await _ in returns {
                try? await refreshLiveReads()
            }
        }
    }
#endif
