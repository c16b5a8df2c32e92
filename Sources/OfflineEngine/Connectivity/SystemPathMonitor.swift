#if canImport(Network)
    import Dispatch
    import Network

    /// Feeds the system's network path (Wi-Fi, cellular, none) into a ``ConnectivityMonitor`` on
    /// Apple platforms, so refreshes pause when the device is offline without the app's help.
    final class SystemPathMonitor: Sendable {
        private let monitor: NWPathMonitor

        /// Starts watching the path and reporting it to `connectivity` until ``cancel()``.
        init(reportingTo connectivity: ConnectivityMonitor) {
            monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { [weak connectivity] path in
                connectivity?.setSystemPath(path.status == .satisfied ? .online : .offline)
            }
            monitor.start(queue: DispatchQueue(label: "OfflineEngine.SystemPathMonitor"))
        }

        /// Stops watching; the monitor's state no longer counts.
        func cancel(reportingTo connectivity: ConnectivityMonitor) {
            monitor.cancel()
            connectivity.setSystemPath(nil)
        }
    }
#endif
