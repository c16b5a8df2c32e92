import Foundation
import OfflineEngine
import Synchronization

/// A transport that holds the first write to one table until a write to another has been
/// answered, so that the second overtakes the first on the server.
final class OvertakingTransport: HTTPTransport, Sendable {
    private struct Hold {
        var released = false
        var heldOnce = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let inner: any HTTPTransport
    private let held: String
    private let overtaking: String
    private let hold = Mutex(Hold())

    /// Holds the first write to `held` until a write to `overtaking` is answered.
    init(wrapping inner: any HTTPTransport, holding held: String, until overtaking: String) {
        self.inner = inner
        self.held = held
        self.overtaking = overtaking
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let isWrite = request.method != .get
        if isWrite, request.url.path.hasSuffix("/" + held) {
            await withCheckedContinuation { continuation in
                let goesNow = hold.withLock { hold -> Bool in
                    if hold.released || hold.heldOnce { return true }
                    hold.heldOnce = true
                    hold.waiting.append(continuation)
                    return false
                }
                if goesNow { continuation.resume() }
            }
        }
        let response = try await inner.send(request)
        if isWrite, request.url.path.hasSuffix("/" + overtaking) {
            let waiting = hold.withLock { hold in
                hold.released = true
                defer { hold.waiting = [] }
                return hold.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
        return response
    }
}
