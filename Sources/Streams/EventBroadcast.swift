import Synchronization

/// A fan-out of events: every reader receives every event sent after it subscribed, in order.
///
/// Use it for notifications that must not be lost (changes, sync progress). `send(_:)` is
/// synchronous and never waits: each reader has its own unbounded buffer, so a reader that stops
/// consuming without being cancelled or dropped makes its buffer grow. Nothing is dropped silently.
/// A reader subscribes when its iterator is created (`makeAsyncIterator()`, or `stream()`).
/// `finish()` ends every reader after it has drained its buffer; `finish(throwing:)` makes every
/// reader throw after draining. A reader created after finishing completes immediately, or throws
/// the error. Events sent after finishing are ignored. Readers that stop (cancelled task, dropped
/// iterator, finished iteration) are removed.
///
/// Use `Never` as `Failure` for a fan-out that can only finish normally.
public final class EventBroadcast<Event: Sendable, Failure: Error>: Sendable {
    private typealias Continuation = UnsafeContinuation<Result<Event?, Failure>, Never>

    private struct Reader {
        let id: UInt64
        var buffer: [Event] = []
        /// Index of the first undelivered event in `buffer` (single-event reads advance it).
        var head = 0
        var continuation: Continuation?
    }

    private struct State {
        var completion: Result<Void, Failure>?
        /// Few readers are expected: an array keeps `send` a tight in-place loop over the buffers.
        var readers: [Reader] = []
        var readerIDs = ReaderIDs()

        func index(of id: UInt64) -> Int? {
            readers.firstIndex { $0.id == id }
        }
    }

    fileprivate enum Poll {
        case events([Event])
        case event(Event)
        case done(Result<Event?, Failure>)
        case suspend
    }

    private let state: Mutex<State>
    /// Whether a reader may be waiting for events: some reader is registered and the fan-out is
    /// not finished. Written under the lock; read by `send` first, so an event with nobody to
    /// hear it touches neither the lock nor the reader types (in an unspecialized caller each
    /// costs a metadata lookup).
    private let listening = Atomic<Bool>(false)

    /// Creates a fan-out without readers.
    public init() {
        state = Mutex(State())
    }

    /// The number of live readers; useful to check that stopped readers were released.
    public var readerCount: Int {
        state.withLock { $0.readers.count }
    }

    /// Whether `finish()` or `finish(throwing:)` has been called.
    public var isFinished: Bool {
        state.withLock { $0.completion != nil }
    }

    /// Delivers `event` to every current reader, buffering it for busy ones; ignored after finishing.
    public func send(_ event: Event) {
        guard listening.load(ordering: .acquiring) else { return }
        let waiting = state.withLock { state -> [Continuation] in
            guard state.completion == nil, !state.readers.isEmpty else {
                return []
            }
            var waiting: [Continuation] = []
            for index in state.readers.indices {
                if let continuation = state.readers[index].continuation {
                    waiting.append(continuation)
                    state.readers[index].continuation = nil
                } else {
                    state.readers[index].buffer.append(event)
                }
            }
            return waiting
        }
        for continuation in waiting {
            continuation.resume(returning: .success(event))
        }
    }

    /// Ends every reader normally once it has received the events already sent.
    public func finish() {
        complete(.success(()))
    }

    /// Ends every reader with `error`, thrown once the reader has received the events already sent.
    public func finish(throwing error: Failure) {
        complete(.failure(error))
    }

    /// Returns a sequence whose every iterator is a new reader, subscribed when it is created.
    public func events() -> Events {
        Events(broadcast: self)
    }

    /// Returns a new reader, subscribed now, as an `AsyncThrowingStream`.
    ///
    /// The stream pulls directly from this fan-out (no intermediate task or copy of the buffer);
    /// the cost over `events()` is one lock of this fan-out per element (the iterator of `events()`
    /// takes all buffered events at once), the stream's own lock and an executor hop per element.
    public func stream() -> AsyncThrowingStream<Event, any Error> {
        let handle = ReaderHandle(broadcast: self)
        return AsyncThrowingStream(unfolding: { try await handle.nextSingle() })
    }

    /// An asynchronous sequence of the events sent after its iterator was created.
    public struct Events: AsyncSequence, Sendable {
        /// The fan-out's event type.
        public typealias Element = Event

        private let broadcast: EventBroadcast

        fileprivate init(broadcast: EventBroadcast) {
            self.broadcast = broadcast
        }

        /// One reader; it takes buffered events in batches and unregisters itself when dropped.
        public struct AsyncIterator: AsyncIteratorProtocol {
            private let handle: ReaderHandle
            private var batch: [Event] = []
            private var batchIndex = 0

            fileprivate init(handle: ReaderHandle) {
                self.handle = handle
            }

            /// Returns the next event, or `nil` once the fan-out finished and the buffer is drained.
            public mutating func next() async throws(Failure) -> Event? {
                try await next(isolation: nil)
            }

            /// Returns the next event, suspending in the caller's isolation.
            public mutating func next(
                isolation actor: isolated (any Actor)?
            ) async throws(Failure) -> Event? {
                if batchIndex < batch.count {
                    let event = batch[batchIndex]
                    batchIndex += 1
                    return event
                }
                // Hand the consumed batch's storage back without keeping a reference to it, so that
                // `send` appends to a uniquely referenced buffer instead of copying it.
                var spare: [Event] = []
                swap(&spare, &batch)
                spare.removeAll(keepingCapacity: true)
                batchIndex = 0
                switch handle.poll(spare: spare) {
                case .events(let events):
                    batch = events
                    batchIndex = 1
                    return events.first
                case .event(let event):
                    return event
                case .done(let result):
                    return try result.get()
                case .suspend:
                    return try await handle.wait()
                }
            }
        }

        /// Subscribes a new reader: it receives every event sent from now on.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(handle: ReaderHandle(broadcast: broadcast))
        }
    }

    /// Registration of one reader, removed from the fan-out when the last reference goes away.
    fileprivate final class ReaderHandle: Sendable {
        private let broadcast: EventBroadcast
        private let id: UInt64

        init(broadcast: EventBroadcast) {
            self.broadcast = broadcast
            self.id = broadcast.register()
        }

        /// Takes the reader's whole buffer, handing `spare` (empty) back for reuse.
        fileprivate func poll(spare: [Event]) -> Poll {
            broadcast.state.withLock { EventBroadcast.poll(&$0, reader: id, spare: spare, continuation: nil) }
        }

        /// Waits for the next event after a poll found nothing.
        fileprivate func wait() async throws(Failure) -> Event? {
            try await broadcast.wait(reader: id)
        }

        /// Returns one event, taking one lock; used by `stream()`, which has nowhere to keep a batch.
        func nextSingle() async throws(Failure) -> Event? {
            let single = broadcast.state.withLock {
                EventBroadcast.pollSingle(&$0, reader: id, continuation: nil)
            }
            switch single {
            case .event(let event):
                return event
            case .events(let events):
                return events.first
            case .done(let result):
                return try result.get()
            case .suspend:
                return try await wait()
            }
        }

        deinit {
            broadcast.unregister(id)
        }
    }

    private func register() -> UInt64 {
        state.withLock { state in
            let id = state.readerIDs.take()
            state.readers.append(Reader(id: id))
            if state.completion == nil { listening.store(true, ordering: .releasing) }
            return id
        }
    }

    private func unregister(_ id: UInt64) {
        let continuation = state.withLock { state -> Continuation? in
            guard let index = state.index(of: id) else {
                return nil
            }
            let removed = state.readers.remove(at: index)
            if state.readers.isEmpty { listening.store(false, ordering: .releasing) }
            return removed.continuation
        }
        continuation?.resume(returning: .success(nil))
    }

    private func complete(_ completion: Result<Void, Failure>) {
        let waiting = state.withLock { state -> [Continuation] in
            guard state.completion == nil else {
                return []
            }
            state.completion = completion
            listening.store(false, ordering: .releasing)
            var waiting: [Continuation] = []
            state.readers.removeAll { reader in
                guard let continuation = reader.continuation else {
                    return false
                }
                waiting.append(continuation)
                return true
            }
            return waiting
        }
        let result = completion.map { Event?.none }
        for continuation in waiting {
            continuation.resume(returning: result)
        }
    }

    /// Takes the reader's buffered events, or its completion; otherwise stores `continuation`.
    private static func poll(
        _ state: inout State,
        reader id: UInt64,
        spare: [Event],
        continuation: Continuation?
    ) -> Poll {
        guard let index = state.index(of: id) else {
            return .done(.success(nil))
        }
        let head = state.readers[index].head
        if head > 0 {
            let events = Array(state.readers[index].buffer[head...])
            state.readers[index].buffer.removeAll(keepingCapacity: true)
            state.readers[index].head = 0
            return .events(events)
        }
        if !state.readers[index].buffer.isEmpty {
            var events = spare
            swap(&events, &state.readers[index].buffer)
            return .events(events)
        }
        if let completion = state.completion {
            state.readers.remove(at: index)
            return .done(completion.map { Event?.none })
        }
        if let continuation {
            precondition(
                state.readers[index].continuation == nil,
                "EventBroadcast: concurrent next() on one reader"
            )
            state.readers[index].continuation = continuation
        }
        return .suspend
    }

    /// Takes one buffered event, or the completion; otherwise stores `continuation`.
    private static func pollSingle(
        _ state: inout State,
        reader id: UInt64,
        continuation: Continuation?
    ) -> Poll {
        guard let index = state.index(of: id), state.readers[index].head < state.readers[index].buffer.count
        else {
            return poll(&state, reader: id, spare: [], continuation: continuation)
        }
        let event = state.readers[index].buffer[state.readers[index].head]
        state.readers[index].head += 1
        if state.readers[index].head == state.readers[index].buffer.count {
            state.readers[index].buffer.removeAll(keepingCapacity: true)
            state.readers[index].head = 0
        }
        return .event(event)
    }

    private func wait(reader id: UInt64) async throws(Failure) -> Event? {
        let result = await suspendReader(
            unregister: { self.unregister(id) },
            poll: { (continuation: Continuation) in
                switch state.withLock({ Self.pollSingle(&$0, reader: id, continuation: continuation) }) {
                case .event(let event): .success(event)
                case .events(let events): .success(events.first)
                case .done(let result): result
                case .suspend: nil
                }
            })
        return try result.get()
    }
}
