import Synchronization

/// The sample's network, as a reachability monitor would report it: each client follows it from
/// its current value on (`Configuration.networkAvailability`).
final class NetworkSwitch: Sendable {
    private let state = Mutex<(isUp: Bool, followers: [AsyncStream<Bool>.Continuation])>((true, []))

    /// A stream of the network's availability, starting with the current value.
    func availability() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Bool.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { state in
            continuation.yield(state.isUp)
            state.followers.append(continuation)
        }
        return stream
    }

    /// Reports the network up or down to every follower.
    func set(up isUp: Bool) {
        let followers = state.withLock { state in
            state.isUp = isUp
            return state.followers
        }
        for follower in followers { follower.yield(isUp) }
    }

    /// Ends every follower's stream.
    func finish() {
        let followers = state.withLock { state in
            defer { state.followers = [] }
            return state.followers
        }
        for follower in followers { follower.finish() }
    }
}
