/// The pure state of one share: its readers, the newest value and the upstream run's lifetime.
///
/// Every event is a mutating method returning what the storage must do once the lock is released
/// (resume readers, cancel or await a run). A run is one iteration of the base in its own task,
/// numbered by an epoch so that the reports of a cancelled run are recognised and dropped.
struct ShareStateMachine<Element: Sendable, Failure: Error>: Sendable {
    /// One upstream run; it never fails, its outcome is reported to the storage.
    typealias Run = Task<Void, Never>
    typealias Continuation = UnsafeContinuation<Wake, Never>

    /// What a suspended reader is resumed with.
    enum Wake: Sendable {
        case value(Element)
        /// The reader is done; it waits for `awaiting` (the ended run) before returning.
        case end(Result<Void, Failure>, awaiting: Run?)
        /// The reader's task was cancelled: it leaves, then returns `nil`.
        case cancelled
    }

    /// What a reader's `next()` does, with or without a continuation.
    enum Poll {
        case deliver(Wake)
        case suspend
    }

    private enum Phase: Sendable {
        /// No run: nothing was asked yet, or the last reader left, or an ended run was forgotten.
        case idle
        case running(epoch: UInt64)
        /// The run ended by itself; its remaining readers drain the newest value, then the end.
        case ended(Result<Void, Failure>)
        /// `close()` was called: every reader ends at once, for good.
        case closed
    }

    private struct Reader: Sendable {
        var seen: UInt64 = 0
        var continuation: Continuation?
        var cancelled = false
    }

    private var phase = Phase.idle
    private var value: Element?
    /// Incremented with each value; a reader has an unseen value while it has seen less.
    private var version: UInt64 = 0
    private var epoch: UInt64 = 0
    /// The most recent run. It is kept until a later run has awaited it (a new run first awaits
    /// its predecessor), so no run is ever dropped without somebody able to await it.
    private var latestRun: Run?
    private var readers: [UInt64: Reader] = [:]
    private var nextReaderID: UInt64 = 0

    var readerCount: Int { readers.count }

    var isRunning: Bool {
        if case .running = phase {
            return true
        }
        return false
    }

    mutating func register() -> UInt64 {
        let id = nextReaderID
        nextReaderID += 1
        readers[id] = Reader()
        return id
    }

    /// A reader asks for its next element; `startRun` creates the run task when one must start.
    ///
    /// `startRun` is called under the lock: creating a task only enqueues it, and its body takes
    /// the lock later, so "running" always comes with its task stored.
    /// Starts a run for the registered reader `id` when none is in progress, taking no value.
    mutating func start(reader id: UInt64, startRun: (_ epoch: UInt64, _ previous: Run?) -> Run) {
        guard readers[id] != nil, case .idle = phase else { return }
        epoch += 1
        phase = .running(epoch: epoch)
        latestRun = startRun(epoch, latestRun)
    }

    mutating func poll(
        reader id: UInt64,
        continuation: Continuation?,
        startRun: (_ epoch: UInt64, _ previous: Run?) -> Run
    ) -> Poll {
        guard let reader = readers[id] else {
            // Removed by `close()` or after its end: iteration stays finished.
            return .deliver(.end(.success(()), awaiting: nil))
        }
        if reader.cancelled {
            return .deliver(.cancelled)
        }
        if let value, reader.seen < version {
            readers[id]?.seen = version
            return .deliver(.value(value))
        }
        switch phase {
        case .idle:
            epoch += 1
            phase = .running(epoch: epoch)
            latestRun = startRun(epoch, latestRun)
        case .running:
            break
        case .ended(let completion):
            remove(id)
            return .deliver(.end(completion, awaiting: latestRun))
        case .closed:
            readers[id] = nil
            return .deliver(.end(.success(()), awaiting: nil))
        }
        if let continuation {
            precondition(reader.continuation == nil, "Share: concurrent next() on one reader")
            readers[id]?.continuation = continuation
        }
        return .suspend
    }

    /// The reader's task was cancelled; returns its continuation to resume with `.cancelled`.
    ///
    /// May run before the continuation is stored: the flag makes the next poll report it.
    mutating func cancel(reader id: UInt64) -> Continuation? {
        guard readers[id] != nil else {
            return nil
        }
        readers[id]?.cancelled = true
        defer { readers[id]?.continuation = nil }
        return readers[id]?.continuation
    }

    /// The reader stops (cancelled, dropped or done); returns the run to cancel when it was the last.
    mutating func leave(reader id: UInt64) -> Run? {
        guard let reader = readers[id] else {
            return nil
        }
        precondition(reader.continuation == nil, "Share: a reader left while suspended in next()")
        return remove(id)
    }

    /// The run produced `element`; returns the readers to resume, or `nil` when the run is stale.
    mutating func produced(_ element: Element, epoch run: UInt64) -> [Continuation]? {
        guard case .running(let current) = phase, current == run else {
            return nil
        }
        value = element
        version += 1
        var waiting: [Continuation] = []
        for index in readers.values.indices {
            if let continuation = readers.values[index].continuation {
                waiting.append(continuation)
                readers.values[index].continuation = nil
                readers.values[index].seen = version
            }
        }
        return waiting
    }

    /// The run ended by itself; returns the waiting readers, who have already seen the newest value.
    mutating func ended(
        _ completion: Result<Void, Failure>,
        epoch run: UInt64
    ) -> (waiting: [Continuation], wake: Wake) {
        guard case .running(let current) = phase, current == run else {
            return ([], .end(completion, awaiting: nil))
        }
        phase = .ended(completion)
        var waiting: [Continuation] = []
        for (id, reader) in readers {
            if let continuation = reader.continuation {
                waiting.append(continuation)
                readers[id] = nil
            }
        }
        let wake = Wake.end(completion, awaiting: latestRun)
        if readers.isEmpty {
            forgetRun()
        }
        return (waiting, wake)
    }

    /// Ends every reader and the share; returns them and the run to cancel and await.
    mutating func close() -> (waiting: [Continuation], run: Run?) {
        let waiting = readers.values.compactMap(\.continuation)
        readers = [:]
        phase = .closed
        value = nil
        return (waiting, latestRun)
    }

    /// Removes a reader; when it was the last, stops a running run or forgets an ended one.
    @discardableResult
    private mutating func remove(_ id: UInt64) -> Run? {
        readers[id] = nil
        guard readers.isEmpty else {
            return nil
        }
        switch phase {
        case .running, .ended:
            forgetRun()
            return latestRun
        case .idle, .closed:
            return nil
        }
    }

    /// Back to idle: the next reader starts a new run and must not see this run's value.
    private mutating func forgetRun() {
        phase = .idle
        value = nil
    }
}
