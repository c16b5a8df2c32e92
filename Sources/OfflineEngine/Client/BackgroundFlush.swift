#if canImport(UIKit) && canImport(BackgroundTasks) && !os(watchOS)
    // Apple platforms only: never compiled on the Linux machines this library is built and
    // tested on (the README says so). Kept to what `flush(within:)` already does.
    import BackgroundTasks
    import UIKit

    extension OfflineClient {
        /// Runs ``flush(within:)`` inside a background task, so the queue keeps draining for a
        /// while after the app leaves the screen. Call it when the scene becomes inactive:
        ///
        /// ```swift
        /// .onChange(of: scenePhase) { _, phase in
        ///     if phase == .background { Task { await supabase.flushInBackground() } }
        /// }
        /// ```
        ///
        /// The flush ends before the time the system grants runs out (5 s are kept for the rest).
        @MainActor
        @discardableResult
        public func flushInBackground(within limit: Duration = .seconds(25)) async -> FlushResult? {
            let application = UIApplication.shared
            let task = application.beginBackgroundTask(
                withName: "OfflineEngine.flush", expirationHandler: nil)
            defer { if task != .invalid { application.endBackgroundTask(task) } }
            // Read once the task has begun: before, in the foreground, there is no bound yet.
            let budget = BackgroundFlushBudget.budget(
                limit: limit, remaining: application.backgroundTimeRemaining)
            return try? await flush(within: budget)
        }

        /// Runs ``flushInBackground(within:)`` each time the app resigns active, until the
        /// calling task is cancelled: opt in by running it for the app's lifetime.
        ///
        /// ```swift
        /// WindowGroup { ContentView() }
        ///     .task { await supabase.flushWhenResigningActive() }
        /// ```
        @MainActor
        public func flushWhenResigningActive(within limit: Duration = .seconds(25)) async {
            let resigns = NotificationCenter.default.notifications(
                named: UIApplication.willResignActiveNotification)
            for await _ in resigns {
                await flushInBackground(within: limit)
            }
        }

        /// Registers a `BGProcessingTask` that needs the network and flushes the queue when the
        /// system runs it; call once at launch, before the app finishes launching, with an
        /// identifier listed under `BGTaskSchedulerPermittedIdentifiers` in Info.plist. Schedule
        /// it with `scheduleBackgroundFlush(identifier:)` when writes wait.
        public static func registerBackgroundFlush(
            identifier: String, client: @escaping @Sendable () -> OfflineClient,
            within limit: Duration = .seconds(60)
        ) {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                // The system's callback is synchronous: the flush runs in a task that the
                // background task owns (cancelled when the system expires it, which ends the
                // flush at once), and completes it from there.
                let system = SystemTask(task)
                let flushing = Task {
                    let result = try? await client().flush(within: limit)
                    system.task.setTaskCompleted(success: result?.isComplete ?? false)
                }
                task.expirationHandler = { flushing.cancel() }
            }
        }

        /// The system's task, handed to the flush that completes it: `BGTask`'s methods may be
        /// called from any thread (Apple's documentation), which Swift cannot see.
        private struct SystemTask: @unchecked Sendable {
            let task: BGTask
            init(_ task: BGTask) { self.task = task }
        }

        /// Asks the system to run the registered background flush when the network is there.
        public static func scheduleBackgroundFlush(identifier: String) throws {
            let request = BGProcessingTaskRequest(identifier: identifier)
            request.requiresNetworkConnectivity = true
            try BGTaskScheduler.shared.submit(request)
        }
    }
#endif
