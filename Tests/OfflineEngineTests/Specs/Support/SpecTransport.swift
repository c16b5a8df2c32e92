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
        /// Set at teardown: no request hangs any more.
        var noMoreHangs = false
        var cancelledEarly: Set<Int> = []
    }

    private let server: any HTTPTransport
    private let state = Mutex(State())
    /// Every request that got past the unreachable check, in order.
    let log = AsyncLog<HTTPRequest>()

    init(server: any HTTPTransport) {
        self.server = server
    }

    func setUnreachable(_ unreachable: Bool) {
        state.withLock { $0.unreachable = unreachable }
    }

    func add(_ answer: Answer, to match: Req, times: Int) {
        state.withLock { $0.rules.append(Rule(match: match, answer: answer, remaining: times)) }
    }

    /// Lets every held request go on; with `forever`, none hangs afterwards either.
    func release(forever: Bool = false) {
        let held = state.withLock { state in
            if forever { state.noMoreHangs = true }
            defer { state.held = [:] }
            return Array(state.held.values)
        }
        for continuation in held { continuation.resume() }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let answer = try state.withLock { state -> Answer? in
            if state.unreachable { throw TransportError(kind: .cannotConnect) }
            guard let index = state.rules.firstIndex(where: { $0.match.matches(request) }) else { return nil }
            let answer = state.rules[index].answer
            state.rules[index].remaining -= 1
            if state.rules[index].remaining <= 0 { state.rules.remove(at: index) }
            return answer
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
            return HTTPResponse(status: status)
        case .transportFailure:
            throw TransportError(kind: .connectionLost)
        case .lost:
            _ = try await server.send(request)
            throw TransportError(kind: .connectionLost)
        case .hang:
            await hold()
            try Task.checkCancellation()
            return try await server.send(request)
        }
    }

    /// Waits until released, or until the sending task is cancelled.
    private func hold() async {
        let id = state.withLock { state in
            state.nextHold += 1
            return state.nextHold
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.noMoreHangs || state.cancelledEarly.remove(id) != nil { return true }
                    state.held[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let waiter = state.held.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return CheckedContinuation<Void, Never>?.none
                }
                return waiter
            }
            waiter?.resume()
        }
    }
}
