import Foundation
import OfflineEngine
import Synchronization

/// A transport that wraps another one, records every request it is asked to send, and fails on
/// demand: the network unreachable, the next answers a 503 or a proxy's HTML page, a delay on a
/// clock the test moves, or an answer lost after the server applied the write.
///
/// Every request is recorded when it arrives, before any fault decides its fate, so a test can
/// wait for "the second write was tried" whatever happened to it:
///
/// ```swift
/// let server = InMemoryPostgREST(tables: ["tasks": []])
/// let transport = RecordingTransport(wrapping: server)
/// transport.inject(.answerLost, where: { $0.method == .post })
/// // ... hand `transport` to the client's Configuration, insert a row ...
/// let writes = try await transport.requests(atLeast: 1, where: { $0.method == .post }, timeout: .seconds(10))
/// ```
///
/// Faults apply in this order: the delay, then unreachability, then the oldest injected fault
/// whose predicate matches (each injection is used up after its count of requests).
public final class RecordingTransport: HTTPTransport, Sendable {
    private struct Injection {
        var fault: Fault
        var remaining: Int
        var predicate: @Sendable (HTTPRequest) -> Bool
    }

    private struct Faults {
        var unreachable = false
        var delay: (duration: Duration, clock: any Clock<Duration>)?
        var injections: [Injection] = []

        /// Takes one use of the oldest injection that matches `request`.
        mutating func take(for request: HTTPRequest) -> Fault? {
            guard let index = injections.firstIndex(where: { $0.predicate(request) }) else { return nil }
            let fault = injections[index].fault
            injections[index].remaining -= 1
            if injections[index].remaining <= 0 { injections.remove(at: index) }
            return fault
        }
    }

    private let inner: any HTTPTransport
    private let log = RequestLog()
    private let faults = Mutex(Faults())

    /// A transport that forwards to `inner` and records each request.
    public init(wrapping inner: any HTTPTransport) {
        self.inner = inner
    }

    /// Every request asked of this transport so far, in order, including the ones a fault
    /// answered or refused.
    public var requests: [HTTPRequest] { log.requests }

    /// Waits until at least `count` requests matching `predicate` were asked of this transport
    /// and returns all the matching ones, in order; throws ``TimedOut`` when they have not come
    /// after `timeout` on `clock`.
    public func requests(
        atLeast count: Int, where predicate: @escaping @Sendable (HTTPRequest) -> Bool = { _ in true },
        timeout: Duration, clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> [HTTPRequest] {
        try await withThrowingTaskGroup(of: [HTTPRequest].self) { group in
            group.addTask { [log] in try await log.requests(atLeast: count, where: predicate) }
            group.addTask { [log] in
                try await clock.sleep(for: timeout)
                throw TimedOut(awaited: count, seen: log.requests.filter(predicate).count, timeout: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    /// Makes every request fail as an unreachable server does
    /// (`TransportError(kind: .cannotConnect)`), without forwarding it, until set back.
    public func setUnreachable(_ unreachable: Bool) {
        faults.withLock { $0.unreachable = unreachable }
    }

    /// Makes each request wait `duration` on `clock` before anything else happens to it; `nil`
    /// removes the delay.
    public func setDelay(_ duration: Duration?, on clock: any Clock<Duration> = ContinuousClock()) {
        faults.withLock { faults in faults.delay = duration.map { ($0, clock) } }
    }

    /// Puts `fault` in place of the answers of the next `count` requests matching `predicate`.
    public func inject(
        _ fault: Fault, count: Int = 1,
        where predicate: @escaping @Sendable (HTTPRequest) -> Bool = { _ in true }
    ) {
        guard count > 0 else { return }
        faults.withLock {
            $0.injections.append(Injection(fault: fault, remaining: count, predicate: predicate))
        }
    }

    /// Removes every fault and the delay.
    public func reset() {
        faults.withLock { $0 = Faults() }
    }

    /// Records the request, applies the faults in place, and otherwise forwards it.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        log.append(request)
        if let delay = faults.withLock({ $0.delay }) {
            try await delay.clock.sleep(for: delay.duration)
        }
        let (unreachable, fault) = faults.withLock { faults in
            faults.unreachable ? (true, nil) : (false, faults.take(for: request))
        }
        if unreachable { throw TransportError(kind: .cannotConnect) }
        if let response = fault?.response { return response }
        let response = try await inner.send(request)
        if fault == .answerLost { throw TransportError(kind: .connectionLost) }
        return response
    }
}
