import Foundation
import OfflineEngine
import Synchronization

/// The wire between a scenario's client and the stand-in server: it refuses everything while
/// the server is unreachable, answers the requests a rule matches as the rule says (a rejection,
/// a proxy's page, a lost answer, a hang), and logs every request that reached the server side.
///
/// It outlives relaunches, so the log holds every request of the scenario.
final class SpecTransport: HTTPTransport, Sendable {
    private struct Rule {
        var match: Req
        var answer: Answer
        var remaining: Int
    }

    private struct State {
        var unreachable = false
        var rules: [Rule] = []
        /// Requests held by `.hang`, until released or cancelled.
        var held: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextHold = 0
        /// Hangs taken by a request that has not reached its wait yet.
        var arriving: Set<Int> = []
        /// Hangs released (or cancelled) before their request reached its wait.
        var passed: Set<Int> = []
        /// Set at teardown: no request hangs any more.
        var noMoreHangs = false
    }

    private let server: any HTTPTransport
    private let state = Mutex(State())
    /// Every request that got past the unreachable check, in order.
    let log = AsyncLog<HTTPRequest>()
    /// What became of each held request, for failure messages.
    let holds = AsyncLog<String>()

    init(server: any HTTPTransport) {
        self.server = server
    }

    func setUnreachable(_ unreachable: Bool) {
        state.withLock { $0.unreachable = unreachable }
    }

    func add(_ answer: Answer, to match: Req, times: Int) {
        state.withLock { $0.rules.append(Rule(match: match, answer: answer, remaining: times)) }
    }

    /// Lets every held request go on, and lifts the hangs no request has taken yet (a request
    /// may reach the wire after the step that releases it); with `forever`, none hangs
    /// afterwards either; with `keepingRules`, hangs not yet taken stay for later requests.
    func release(forever: Bool = false, keepingRules: Bool = false) {
        let held = state.withLock { state in
            if forever { state.noMoreHangs = true }
            state.passed.formUnion(state.arriving)
            if !keepingRules { state.rules.removeAll { $0.answer.isHeld } }
            state.arriving = []
            defer { state.held = [:] }
            return Array(state.held.values)
        }
        for continuation in held { continuation.resume() }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (answer, hold) = try state.withLock { state -> (Answer?, Int) in
            if state.unreachable { throw TransportError(kind: .cannotConnect) }
            guard let index = state.rules.firstIndex(where: { $0.match.matches(request) }) else {
                return (nil, 0)
            }
            let answer = state.rules[index].answer
            state.rules[index].remaining -= 1
            if state.rules[index].remaining <= 0 { state.rules.remove(at: index) }
            guard answer.isHeld else { return (answer, 0) }
            // The hang is counted from here, so a release that comes before the request reaches
            // its wait still lets it go.
            state.nextHold += 1
            state.arriving.insert(state.nextHold)
            return (answer, state.nextHold)
        }
        log.append(request)
        switch answer {
        case nil:
            return try await server.send(request)
        case .reject(let status, let code):
            return errorResponse(status: status, code: code, message: "refused by the server")
        case .unavailable(let retryAfter):
            return errorResponse(status: 503, code: "PGRST002", retryAfter: retryAfter)
        case .proxyPage(let status):
            let page = "<html><body>Bad gateway</body></html>"
            return HTTPResponse(status: status, headers: ["Content-Type": "text/html"], body: Data(page.utf8))
        case .empty(let status):
            return minimalWriteResponse(status: status)
        case .body(let status, let text):
            return HTTPResponse(
                status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        case .transportFailure:
            throw TransportError(kind: .connectionLost)
        case .lost:
            _ = try await server.send(request)
            throw TransportError(kind: .connectionLost)
        case .late:
            let response = try await server.send(request)
            await wait(hold)
            if Task.isCancelled { holds.append("late \(hold) cancelled") }
            try Task.checkCancellation()
            holds.append("late \(hold) answered \(response.status)")
            return response
        case .hang:
            await wait(hold)
            if Task.isCancelled { holds.append("hold \(hold) cancelled") }
            try Task.checkCancellation()
            let response = try await server.send(request)
            holds.append("hold \(hold) answered \(response.status)")
            return response
        }
    }

    /// Waits until released, or until the sending task is cancelled.
    private func wait(_ id: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    state.arriving.remove(id)
                    if state.noMoreHangs || state.passed.remove(id) != nil { return true }
                    state.held[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let waiter = state.held.removeValue(forKey: id) else {
                    if state.arriving.remove(id) != nil { state.passed.insert(id) }
                    return CheckedContinuation<Void, Never>?.none
                }
                return waiter
            }
            waiter?.resume()
        }
    }
}

extension Answer {
    /// Whether a request it answers waits for a `.release`.
    fileprivate var isHeld: Bool {
        switch self {
        case .hang, .late: true
        default: false
        }
    }
}
