extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Shares one iteration of this sequence among every reader, as a state stream.
    ///
    /// Keep the returned sequence and iterate it from as many places as needed: the first reader
    /// to ask for an element starts one iteration of this sequence, and the last reader to leave
    /// stops it. A new reader first receives the newest value, and a slow reader only ever gets
    /// the newest value it has not seen. Calling `share()` twice makes two independent shares.
    ///
    /// ```swift
    /// let snapshots = combineLatest(tableFacts, refresher.states)
    ///     .scan(Composer(), { composer, input in composer.compose(input) })
    ///     .distinct()
    ///     .share()
    /// // Each screen: one iteration of the pipeline above runs while any screen reads.
    /// for try await snapshot in snapshots {
    ///     render(snapshot)
    /// }
    /// ```
    ///
    /// - Returns: A sequence whose iterators are readers of one shared iteration; see
    ///   `AsyncShareSequence` for its lifetime, errors and end.
    public func share() -> AsyncShareSequence<Self> {
        AsyncShareSequence(base: self, alongside: nil)
    }

    /// Shares one iteration of this sequence among every reader, as ``share()`` does, and runs
    /// `work` beside each iteration as a child task of it.
    ///
    /// `work` starts when a run starts and is cancelled when the run stops (the last reader left,
    /// the base ended, or `close()`); the run ends only once `work` has returned, so nothing it
    /// does outlives the readers. Use it for what keeps the shared values coming, such as the
    /// refresh behind a shared query:
    ///
    /// ```swift
    /// let snapshots = combineLatest(tableFacts, refresher.states.values())
    ///     .scan(composer, { composer, input in composer.compose(input) })
    ///     .distinct()
    ///     .share(alongside: { await refresher.run() })
    /// ```
    ///
    /// - Parameter work: The work to run beside each run; it should return soon after it is
    ///   cancelled.
    /// - Returns: A sequence whose iterators are readers of one shared iteration.
    public func share(alongside work: @escaping @Sendable () async -> Void) -> AsyncShareSequence<Self> {
        AsyncShareSequence(base: self, alongside: work)
    }
}

/// An asynchronous sequence whose readers share one iteration of a base sequence.
///
/// Created by `AsyncSequence.share()`. Each iterator is one reader, registered when it is created.
///
/// - **Lifetime** (like GRDB's `SharedValueObservation` with `.whileObserved`): the first `next()`
///   of a reader starts a run, one iteration of the base in a task owned by the share; the run
///   pulls the base as fast as it produces. When the last reader leaves (its task is cancelled,
///   its iterator is dropped or its iteration ends) the run is cancelled and its newest value
///   forgotten; a later reader starts a fresh run.
/// - **No unawaited task**: a new run first awaits the previous one, so the base is never
///   iterated twice at once; a last reader leaving because its task was cancelled awaits the run
///   before its `next()` returns `nil`, so the consumer's loop ends after the base has stopped;
///   `close()` cancels and awaits the run. Only a reader dropped without cancellation (`break`)
///   leaves a cancelled run that nobody awaits yet: the share keeps it for the next run or `close()`.
/// - **Values**: a reader first receives the newest value of the current run, if any, then each
///   newer value; a slow reader skips to the newest (keep-newest-1), as `StateBroadcast`.
/// - **End**: when the base finishes or fails, every reader receives the newest value it has not
///   seen, then the end or the error. A reader created while readers of that ended run remain
///   gets the same; once they have all left, the next reader starts a fresh run, so a failure is
///   recovered by reading again.
/// - **Cancellation**: a cancelled reader's `next()` returns `nil`; the other readers go on. As
///   with a child task, a base that ignores cancellation delays the last reader's return.
public struct AsyncShareSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
    /// The element type, identical to the base sequence's.
    public typealias Element = Base.Element
    /// The error type, identical to the base sequence's.
    public typealias Failure = Base.Failure

    private let storage: ShareStorage<Base>

    init(base: Base, alongside: (@Sendable () async -> Void)?) {
        storage = ShareStorage(base: base, alongside: alongside)
    }

    /// The number of live readers; useful to check that stopped readers were released.
    public var readerCount: Int {
        storage.readerCount
    }

    /// Whether a run of the base is in progress (started and neither stopped nor ended).
    public var isRunning: Bool {
        storage.isRunning
    }

    /// Ends every reader, stops the run and returns once it has stopped; the share stays closed.
    ///
    /// Current readers return `nil` and readers created afterwards end at once without a value.
    public func close() async {
        await storage.close()
    }

    /// One reader of the share; it leaves when dropped, cancelled or finished.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        private let handle: ReaderHandle

        fileprivate init(handle: ReaderHandle) {
            self.handle = handle
        }

        /// Starts the shared iteration now if none is in progress, as this reader's first `next()`
        /// would, but takes no value: the first `next()` then returns the newest value.
        public func start() {
            handle.storage.start(reader: handle.id)
        }

        /// Returns the newest value this reader has not seen, or `nil` once it has finished.
        public mutating func next() async throws(Failure) -> Element? {
            try await handle.storage.next(reader: handle.id, isolation: nil)
        }

        /// Returns the newest unseen value, suspending in the caller's isolation.
        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async throws(Failure) -> Element? {
            try await handle.storage.next(reader: handle.id, isolation: actor)
        }
    }

    /// Registers a new reader; the run starts when some reader first asks for an element.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: ReaderHandle(storage: storage))
    }

    /// The registration of one reader, leaving the share when the last copy of it goes away.
    fileprivate final class ReaderHandle: Sendable {
        let storage: ShareStorage<Base>
        let id: UInt64

        init(storage: ShareStorage<Base>) {
            self.storage = storage
            self.id = storage.register()
        }

        deinit {
            storage.leave(reader: id)
        }
    }
}
