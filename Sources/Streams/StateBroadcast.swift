import Synchronization

/// A current value that many readers can observe as an asynchronous sequence, newest value first.
///
/// Use it to publish state (query results, connectivity, settings) to any number of consumers:
/// `send(_:)` is synchronous, so actors and plain code can publish without `await`. Each reader
/// created by `values()` or `stream()` first yields the value current when it asks for its first
/// element, then later values. A slow reader is never backlogged: it always receives the newest
/// value and skips the ones it missed (keep-newest-1), though it never misses the final value sent
/// before `finish()`. `finish()` ends every reader normally and `finish(throwing:)` makes every
/// reader throw after it has received the final value. A reader created after finishing completes
/// immediately, or throws the error, without yielding a value. Values sent after finishing are
/// ignored. Readers that stop (cancelled task, dropped iterator, finished iteration) are removed.
///
/// Use `Never` as `Failure` for a holder that can only finish normally.
public final class StateBroadcast<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Continuation = UnsafeContinuation<Result<Value?, Failure>, Never>

    @usableFromInline
    struct Reader {
        @usableFromInline var seenVersion: UInt64
        @usableFromInline var continuation: Continuation?

        @inlinable
        init(seenVersion: UInt64, continuation: Continuation?) {
            self.seenVersion = seenVersion
            self.continuation = continuation
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var value: Value
        @usableFromInline var version: UInt64 = 1
        @usableFromInline var completion: Result<Void, Failure>?
        @usableFromInline var readers: [UInt64: Reader] = [:]
        @usableFromInline var readerIDs = ReaderIDs()
        /// Combined readers waiting for the next change (see `watch(_:after:waker:when:)`).
        @usableFromInline var watchers: [UInt64: Watcher] = [:]

        @inlinable
        init(value: Value) {
            self.value = value
        }
    }

    /// A combined reader waiting for a change: its waker, and which new values wake it (`nil`:
    /// every one).
    @usableFromInline
    struct Watcher: Sendable {
        @usableFromInline let waker: StateWaker
        @usableFromInline let matters: (@Sendable (Value) -> Bool)?

        @inlinable
        init(waker: StateWaker, matters: (@Sendable (Value) -> Bool)?) {
            self.waker = waker
            self.matters = matters
        }
    }

    @usableFromInline
    enum Poll {
        case value(Value)
        case done(Result<Value?, Failure>)
        case suspend
    }

    @usableFromInline let state: Mutex<State>

    /// Creates a holder whose readers first see `initialValue` until something else is sent.
    public init(_ initialValue: Value) {
        state = Mutex(State(value: initialValue))
    }

    /// The current value, read synchronously.
    @inlinable
    public var value: Value {
        state.withLock { $0.value }
    }

    /// The number of live readers; useful to check that stopped readers were released.
    public var readerCount: Int {
        state.withLock { $0.readers.count }
    }

    /// Whether `finish()` or `finish(throwing:)` has been called.
    public var isFinished: Bool {
        state.withLock { $0.completion != nil }
    }

    /// Replaces the current value and wakes every waiting reader with it; ignored after finishing.
    @inlinable
    public func send(_ value: Value) {
        update { $0 = value }
    }

    /// Mutates the current value in place under the lock, then wakes waiting readers.
    ///
    /// The closure runs while the holder's lock is held: it must not call back into this holder.
    /// Ignored after finishing.
    @inlinable
    public func update(_ body: (inout Value) -> Void) {
        var woken: [StateWaker] = []
        let (waiting, value) = state.withLock { state -> ([Continuation], Value) in
            guard state.completion == nil else {
                return ([], state.value)
            }
            body(&state.value)
            state.version += 1
            if !state.watchers.isEmpty {
                let value = state.value
                for (id, watcher) in state.watchers where watcher.matters?(value) ?? true {
                    woken.append(watcher.waker)
                    state.watchers[id] = nil
                }
            }
            var waiting: [Continuation] = []
            for index in state.readers.values.indices {
                if let continuation = state.readers.values[index].continuation {
                    waiting.append(continuation)
                    state.readers.values[index].continuation = nil
                    state.readers.values[index].seenVersion = state.version
                }
            }
            return (waiting, state.value)
        }
        for continuation in waiting {
            continuation.resume(returning: .success(value))
        }
        for waker in woken { waker.fire() }
    }

    /// Ends every reader normally once it has received the current value.
    public func finish() {
        complete(.success(()))
    }

    /// Ends every reader with `error`, thrown once the reader has received the current value.
    public func finish(throwing error: Failure) {
        complete(.failure(error))
    }

    /// Returns a new reader sequence; each iterator of it is one independent reader.
    @inlinable
    public func values() -> Values {
        Values(broadcast: self)
    }

    /// Returns a new reader as an `AsyncThrowingStream`, for APIs that must expose that type.
    ///
    /// The stream pulls directly from this holder (no intermediate task or buffer); the cost over
    /// `values()` is the stream's own lock and an executor hop per element, since the stream's
    /// producer closure is not isolated to the consumer.
    public func stream() -> AsyncThrowingStream<Value, any Error> {
        let handle = ReaderHandle(broadcast: self)
        return AsyncThrowingStream(unfolding: { try await handle.next(isolation: nil) })
    }

    /// An asynchronous sequence of this holder's values; see `StateBroadcast`.
    public struct Values: AsyncSequence, Sendable {
        /// The holder's value type.
        public typealias Element = Value

        @usableFromInline let broadcast: StateBroadcast

        @usableFromInline
        init(broadcast: StateBroadcast) {
            self.broadcast = broadcast
        }

        /// One reader of the holder; it unregisters itself when dropped or finished.
        public struct AsyncIterator: AsyncIteratorProtocol {
            @usableFromInline let handle: ReaderHandle

            @usableFromInline
            init(handle: ReaderHandle) {
                self.handle = handle
            }

            /// Returns the newest value not yet seen by this reader, or `nil` once finished.
            @inlinable
            public mutating func next() async throws(Failure) -> Value? {
                try await handle.next(isolation: nil)
            }

            /// Returns the newest unseen value, suspending in the caller's isolation.
            @inlinable
            public mutating func next(
                isolation actor: isolated (any Actor)?
            ) async throws(Failure) -> Value? {
                try await handle.next(isolation: actor)
            }
        }

        /// Registers a new reader; its first element is the value current at that time or later.
        @inlinable
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(handle: ReaderHandle(broadcast: broadcast))
        }
    }

    /// Registration of one reader, removed from the holder when the last reference goes away.
    @usableFromInline
    final class ReaderHandle: Sendable {
        @usableFromInline let broadcast: StateBroadcast
        @usableFromInline let id: UInt64

        @usableFromInline
        init(broadcast: StateBroadcast) {
            self.broadcast = broadcast
            self.id = broadcast.register()
        }

        @inlinable
        func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Value? {
            try await broadcast.next(reader: id)
        }

        deinit {
            broadcast.unregister(id)
        }
    }

    @usableFromInline
    func register() -> UInt64 {
        state.withLock { state in
            let id = state.readerIDs.take()
            let seen = state.completion == nil ? state.version - 1 : state.version
            state.readers[id] = Reader(seenVersion: seen, continuation: nil)
            return id
        }
    }

    @usableFromInline
    func unregister(_ id: UInt64) {
        let continuation = state.withLock { $0.readers.removeValue(forKey: id)?.continuation }
        continuation?.resume(returning: .success(nil))
    }

    private func complete(_ completion: Result<Void, Failure>) {
        var watchers: [UInt64: Watcher] = [:]
        let waiting = state.withLock { state -> [Continuation] in
            guard state.completion == nil else {
                return []
            }
            state.completion = completion
            watchers = state.watchers
            state.watchers = [:]
            var waiting: [Continuation] = []
            for (id, reader) in state.readers {
                if let continuation = reader.continuation {
                    waiting.append(continuation)
                    state.readers[id] = nil
                }
            }
            return waiting
        }
        let result = completion.map { Value?.none }
        for continuation in waiting {
            continuation.resume(returning: result)
        }
        for watcher in watchers.values { watcher.waker.fire() }
    }

    // MARK: Combined readers

    /// The current value, its version and whether the holder has finished, read together.
    @inlinable
    func current() -> (value: Value, version: UInt64, finished: Bool) {
        state.withLock { ($0.value, $0.version, $0.completion != nil) }
    }

    /// Asks for `waker` to fire at the next change after `version` whose new value `matters`
    /// (every change, when `nil`), for the combined reader `id` (replacing its earlier request).
    /// Returns `true`, storing nothing, when a change came already; a finished holder stores
    /// nothing and returns `false`: it never changes again. Finishing fires every waker.
    ///
    /// `matters` runs under the holder's lock, in the caller of `send` or `update`: it must be
    /// quick and must not call back into this holder.
    @inlinable
    func watch(
        _ id: UInt64, after version: UInt64, waker: StateWaker,
        when matters: (@Sendable (Value) -> Bool)? = nil
    ) -> Bool {
        state.withLock { state in
            if state.version != version { return true }
            guard state.completion == nil else { return false }
            state.watchers[id] = Watcher(waker: waker, matters: matters)
            return false
        }
    }

    /// Forgets the combined reader `id`'s request.
    func unwatch(_ id: UInt64) {
        _ = state.withLock { $0.watchers.removeValue(forKey: id) }
    }

    /// How many combined readers wait for a change; useful to check that they were released.
    var watcherCount: Int {
        state.withLock { $0.watchers.count }
    }

    /// Looks at the reader's state; stores `continuation` when there is nothing to deliver yet.
    @inlinable
    static func poll(_ state: inout State, reader id: UInt64, continuation: Continuation?) -> Poll {
        guard let reader = state.readers[id] else {
            return .done(.success(nil))
        }
        if reader.seenVersion < state.version {
            state.readers[id]?.seenVersion = state.version
            return .value(state.value)
        }
        if let completion = state.completion {
            state.readers[id] = nil
            return .done(completion.map { Value?.none })
        }
        if let continuation {
            precondition(reader.continuation == nil, "StateBroadcast: concurrent next() on one reader")
            state.readers[id]?.continuation = continuation
        }
        return .suspend
    }

    @inlinable
    func next(reader id: UInt64) async throws(Failure) -> Value? {
        switch state.withLock({ Self.poll(&$0, reader: id, continuation: nil) }) {
        case .value(let value):
            return value
        case .done(let result):
            return try result.get()
        case .suspend:
            break
        }
        let result = await suspendReader(
            unregister: { self.unregister(id) },
            poll: { (continuation: Continuation) in
                switch state.withLock({ Self.poll(&$0, reader: id, continuation: continuation) }) {
                case .value(let value): .success(value)
                case .done(let result): result
                case .suspend: nil
                }
            })
        return try result.get()
    }
}
