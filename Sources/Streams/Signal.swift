import Synchronization

/// A "something happened" wake-up for any number of readers, each woken once per burst of fires.
///
/// `fire()` is synchronous and never waits, so actors and plain code can signal without `await`.
/// A reader is subscribed when `subscribe()` or `stream()` returns, not when it starts iterating:
/// a fire between subscribing and waiting is kept. Each reader holds at most one pending wake, so
/// any number of fires since it last woke gives it exactly one `Void`, never a backlog; fires
/// before it subscribed are not seen. Every reader gets its own wake. `finish()` ends every reader
/// after its pending wake, if any; a reader subscribed after finishing ends at once. Readers that
/// stop (cancelled task, dropped subscription, finished iteration) are removed.
///
/// ```swift
/// let queued = Signal()
/// // Subscribe before the work, so a fire that arrives during it is not lost.
/// let wake = queued.subscribe()
/// await drainQueue()
/// for await _ in wake {
///     await drainQueue()
/// }
/// // Elsewhere, from any context:
/// queued.fire()
/// ```
public final class Signal: Sendable {
    /// Resumed with `true` for a wake and `false` for the end.
    private typealias Continuation = UnsafeContinuation<Bool, Never>

    private struct State {
        /// Incremented by every fire; a reader has a pending wake while it has seen less.
        var generation: UInt64 = 0
        var finished = false
        /// The generation each live reader last woke for.
        var readers: [UInt64: UInt64] = [:]
        /// Readers suspended in `next()`; a fire only touches these.
        var waiting: [UInt64: Continuation] = [:]
        var readerIDs = ReaderIDs()
    }

    private enum Poll {
        case wake
        case end
        case suspend
    }

    private let state = Mutex(State())

    /// Creates a signal without readers.
    public init() {}

    /// The number of live readers; useful to check that stopped readers were released.
    public var readerCount: Int {
        state.withLock { $0.readers.count }
    }

    /// Whether `finish()` has been called.
    public var isFinished: Bool {
        state.withLock { $0.finished }
    }

    /// Gives every current reader one pending wake and resumes those that are waiting.
    ///
    /// Cost is proportional to the number of waiting readers; ignored after finishing.
    public func fire() {
        let waiting = state.withLock { state -> [Continuation] in
            guard !state.finished else {
                return []
            }
            state.generation += 1
            for id in state.waiting.keys {
                state.readers[id] = state.generation
            }
            defer { state.waiting.removeAll(keepingCapacity: true) }
            return Array(state.waiting.values)
        }
        for continuation in waiting {
            continuation.resume(returning: true)
        }
    }

    /// Ends every reader once it has taken its pending wake, if it has one.
    public func finish() {
        let waiting = state.withLock { state -> [Continuation] in
            guard !state.finished else {
                return []
            }
            state.finished = true
            for id in state.waiting.keys {
                state.readers[id] = nil
            }
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting {
            continuation.resume(returning: false)
        }
    }

    /// Subscribes a new reader now; iterate the returned sequence once to receive its wakes.
    public func subscribe() -> Subscription {
        Subscription(registration: Registration(signal: self))
    }

    /// Subscribes a new reader now and returns it as an `AsyncStream`, for APIs that need that type.
    ///
    /// The stream pulls directly from this signal (no intermediate task or buffer); it ends when
    /// the signal finishes or the consuming task is cancelled, and unsubscribes when dropped.
    public func stream() -> AsyncStream<Void> {
        let registration = Registration(signal: self)
        return AsyncStream(unfolding: { await registration.next() ? () : nil })
    }

    /// One reader of a signal: yields `Void` once per burst of fires since it last yielded.
    ///
    /// The reader was subscribed when `Signal.subscribe()` returned. It is a single reader: its
    /// iterators (and copies) share one pending wake, and two concurrent `next()` calls trap.
    public struct Subscription: AsyncSequence, Sendable {
        /// A wake carries no value.
        public typealias Element = Void
        /// A signal never fails.
        public typealias Failure = Never

        fileprivate let registration: Registration

        /// The iterator of the subscription's reader.
        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate let registration: Registration

            /// Returns once the signal has fired since the last wake, or `nil` once it ended.
            public mutating func next() async -> Void? {
                await registration.next() ? () : nil
            }

            /// Returns at the next wake or `nil` at the end, suspending in the caller's isolation.
            public mutating func next(isolation actor: isolated (any Actor)?) async -> Void? {
                await registration.next(isolation: actor) ? () : nil
            }
        }

        /// Returns an iterator over this subscription's wakes.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(registration: registration)
        }
    }

    /// The registration of one reader, removed from the signal when the last reference goes away.
    fileprivate final class Registration: Sendable {
        private let signal: Signal
        private let id: UInt64

        init(signal: Signal) {
            self.signal = signal
            self.id = signal.register()
        }

        func next(isolation actor: isolated (any Actor)? = #isolation) async -> Bool {
            await signal.next(reader: id, isolation: actor)
        }

        deinit {
            signal.unregister(id)
        }
    }

    private func register() -> UInt64 {
        state.withLock { state in
            let id = state.readerIDs.take()
            state.readers[id] = state.generation
            return id
        }
    }

    private func unregister(_ id: UInt64) {
        let continuation = state.withLock { state -> Continuation? in
            state.readers[id] = nil
            return state.waiting.removeValue(forKey: id)
        }
        continuation?.resume(returning: false)
    }

    /// Looks at the reader's state; stores `continuation` when there is nothing to deliver yet.
    private static func poll(_ state: inout State, reader id: UInt64, continuation: Continuation?) -> Poll {
        guard let seen = state.readers[id] else {
            return .end
        }
        if seen < state.generation {
            state.readers[id] = state.generation
            return .wake
        }
        if state.finished {
            state.readers[id] = nil
            return .end
        }
        if let continuation {
            precondition(state.waiting[id] == nil, "Signal: concurrent next() on one subscription")
            state.waiting[id] = continuation
        }
        return .suspend
    }

    private func next(reader id: UInt64, isolation actor: isolated (any Actor)?) async -> Bool {
        switch state.withLock({ Self.poll(&$0, reader: id, continuation: nil) }) {
        case .wake:
            return true
        case .end:
            return false
        case .suspend:
            break
        }
        // A cancellation handler that runs before the continuation is stored removes the reader,
        // so the poll inside finds it gone and resumes at once with the end.
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: Continuation) in
                switch state.withLock({ Self.poll(&$0, reader: id, continuation: continuation) }) {
                case .wake:
                    continuation.resume(returning: true)
                case .end:
                    continuation.resume(returning: false)
                case .suspend:
                    break
                }
            }
        } onCancel: {
            unregister(id)
        }
    }
}
