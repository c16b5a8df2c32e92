import Foundation
import OfflineEngine
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 at an ephemeral port that answers every request with a
/// handler (an ``InMemoryPostgREST``, say), so a client under test goes through
/// `URLSessionTransport` and real sockets.
///
/// Sockets block on threads of their own (an accept thread, one per connection); the handler
/// runs in ``serving(_:_:)``'s task group, which owns the server's life:
///
/// ```swift
/// let server = InMemoryPostgREST(tables: ["tasks": []])
/// try await LocalHTTPServer.serving(server) { local in
///     let client = try await OfflineClient(configuration: Configuration(
///         url: local.baseURL, apiKey: "anon", transport: URLSessionTransport()))
///     _ = try await client.from("tasks").insert(["title": "Milk"] as Row).execute()
/// }
/// ```
public final class LocalHTTPServer: Sendable {
    /// The port it listens on.
    public let port: UInt16
    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The listening socket, or `nil` while stopped (connections are refused).
    private let listening: Mutex<Int32?>
    private let faults = Mutex<[LocalHTTPFault.Rule]>([])
    private let handler: any HTTPTransport
    private let exchanges: AsyncStream<Exchange>
    private let arrivals: AsyncStream<Exchange>.Continuation

    /// A request read from a connection, answered by writing to its socket.
    private struct Exchange: Sendable {
        let socket: Int32
        let reading: HTTPWire.Reading
    }

    private init(handler: any HTTPTransport) throws {
        self.handler = handler
        let (socket, port) = try Self.openListeningSocket(port: 0)
        self.port = port
        listening = Mutex(socket)
        (exchanges, arrivals) = AsyncStream.makeStream(of: Exchange.self)
    }

    /// Runs a server answering with `handler` while `body` runs; stops it (no new connection is
    /// accepted, answers under way finish) before returning `body`'s result.
    public static func serving<T: Sendable>(
        _ handler: any HTTPTransport, _ body: (LocalHTTPServer) async throws -> T
    ) async throws -> T {
        let server = try LocalHTTPServer(handler: handler)
        server.startAccepting()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await server.answerRequests() }
            defer { server.stop() }
            return try await body(server)
        }
    }

    /// Stops accepting: the accept thread ends, and the answering loop once its answers are done.
    private func stop() {
        stopAccepting()
        arrivals.finish()
    }

    /// Stops listening, as a server that went down: connecting is refused until
    /// ``resumeAccepting()``. Answers under way still go out.
    public func stopAccepting() {
        guard
            let socket = listening.withLock({ current in
                defer { current = nil }
                return current
            })
        else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    /// Listens again on the same port, as a server that came back.
    public func resumeAccepting() throws {
        let (socket, _) = try Self.openListeningSocket(port: port)
        let replaced = listening.withLock { current in
            defer { current = current ?? socket }
            return current != nil
        }
        if replaced { close(socket) } else { startAccepting() }
    }

    /// Makes the next `times` requests for which `matches` holds meet `fault` (see
    /// ``LocalHTTPFault``); rules are used in the order they were added. `matches` runs under the
    /// server's lock: it must not call the server.
    public func inject(
        _ fault: LocalHTTPFault, times: Int = 1,
        where matches: @escaping @Sendable (HTTPRequest) -> Bool = { _ in true }
    ) {
        faults.withLock { $0.append(LocalHTTPFault.Rule(fault: fault, remaining: times, matches: matches)) }
    }

    /// How many injected faults have not been met yet.
    public var unusedFaults: Int { faults.withLock { $0.reduce(0) { $0 + $1.remaining } } }

    private func startAccepting() {
        guard let socket = listening.withLock({ $0 }) else { return }
        let accepting = Thread { [self] in acceptConnections(on: socket) }
        accepting.start()
    }

    /// The fault the next answer to `request` meets, if any (used up).
    private func takeFault(for request: HTTPRequest) -> LocalHTTPFault? {
        faults.withLock { rules in
            guard let index = rules.firstIndex(where: { $0.matches(request) }) else { return nil }
            rules[index].remaining -= 1
            let fault = rules[index].fault
            if rules[index].remaining <= 0 { rules.remove(at: index) }
            return fault
        }
    }

    // MARK: Sockets (on threads of their own)

    private static func openListeningSocket(port: UInt16) throws -> (Int32, UInt16) {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw LocalHTTPServerError(what: "a socket could not be made") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound, listen(descriptor, 128) == 0 else {
            close(descriptor)
            throw LocalHTTPServerError(what: "127.0.0.1 could not be listened on")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    private func acceptConnections(on socket: Int32) {
        while true {
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let reading = Thread { [self] in readRequest(from: connection) }
            reading.start()
        }
    }

    private func readRequest(from connection: Int32) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1_024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                close(connection)
                return
            }
            bytes.append(contentsOf: chunk[..<count])
            let reading = HTTPWire.read(bytes, base: baseURL)
            if reading != .incomplete {
                if case .terminated = arrivals.yield(Exchange(socket: connection, reading: reading)) {
                    close(connection)
                }
                return
            }
        }
    }

    // MARK: Answers (in the serving task group)

    private func answerRequests() async {
        await withTaskGroup(of: Void.self) { group in
            for await exchange in exchanges {
                group.addTask { [self] in await answer(exchange) }
            }
        }
    }

    private func answer(_ exchange: Exchange) async {
        defer { close(exchange.socket) }
        let request: HTTPRequest
        switch exchange.reading {
        case .request(let read): request = read
        case .malformed(let reason):
            return Self.write(HTTPWire.bytes(of: Self.message(400, reason)), to: exchange.socket)
        case .incomplete:
            return Self.write(
                HTTPWire.bytes(of: Self.message(400, "the request ended early")), to: exchange.socket)
        }
        let fault = takeFault(for: request)
        if case .status(let status)? = fault {
            return Self.write(HTTPWire.bytes(of: LocalHTTPFault.page(status)), to: exchange.socket)
        }
        let response: HTTPResponse
        do {
            response = try await handler.send(request)
        } catch {
            response = Self.message(500, "the handler failed")
        }
        let bytes = HTTPWire.bytes(of: response)
        switch fault {
        case .delay(let duration)?:
            try? await Task.sleep(for: duration)
            Self.write(bytes, to: exchange.socket)
        case .held(let release)?:
            await release()
            Self.write(bytes, to: exchange.socket)
        case .dropMidBody?:
            // The head promises a body of which half arrives (a few bytes when it had none). The
            // head itself is whole: on Linux, URLSession stops the process when a connection
            // closes inside the head (swift-corelibs-foundation issue 5285).
            var cut = response
            if cut.body.isEmpty { cut.body = Data("[{\"lost\":true}]".utf8) }
            let whole = HTTPWire.bytes(of: cut)
            Self.write(Array(whole.prefix(whole.count - cut.body.count / 2)), to: exchange.socket)
        case .loseAnswer?:
            // Closed with nothing answered.
            return
        case .status?, nil:
            Self.write(bytes, to: exchange.socket)
        }
    }

    private static func write(_ bytes: [UInt8], to socket: Int32) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, noSignal) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Writing to a connection the client closed fails instead of raising SIGPIPE.
    private static var noSignal: Int32 {
        #if canImport(Glibc)
            Int32(MSG_NOSIGNAL)
        #else
            0
        #endif
    }

    private static func message(_ status: Int, _ text: String) -> HTTPResponse {
        PostgrestError(status: status, code: "LOCAL", message: text).response
    }
}

/// The local server could not start (or listen again).
public struct LocalHTTPServerError: Error, CustomStringConvertible {
    let what: String
    public var description: String { "The local HTTP server could not start: \(what)." }
}
