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

    private let listening: Int32
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
        (listening, port) = try Self.openListeningSocket()
        (exchanges, arrivals) = AsyncStream.makeStream(of: Exchange.self)
    }

    /// Runs a server answering with `handler` while `body` runs; stops it (no new connection is
    /// accepted, answers under way finish) before returning `body`'s result.
    public static func serving<T: Sendable>(
        _ handler: any HTTPTransport, _ body: (LocalHTTPServer) async throws -> T
    ) async throws -> T {
        let server = try LocalHTTPServer(handler: handler)
        let accepting = Thread { [server] in server.acceptConnections() }
        accepting.start()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await server.answerRequests() }
            defer { server.stop() }
            return try await body(server)
        }
    }

    /// Stops accepting: the accept thread ends, and the answering loop once its answers are done.
    private func stop() {
        shutdown(listening, Int32(SHUT_RDWR))
        close(listening)
        arrivals.finish()
    }

    // MARK: Sockets (on threads of their own)

    private static func openListeningSocket() throws -> (Int32, UInt16) {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw ServerError(what: "a socket could not be made") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound, listen(descriptor, 128) == 0 else {
            close(descriptor)
            throw ServerError(what: "127.0.0.1 could not be listened on")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listening, nil, nil)
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
        let response: HTTPResponse
        switch exchange.reading {
        case .request(let request):
            do {
                response = try await handler.send(request)
            } catch {
                response = Self.message(500, "the handler failed")
            }
        case .malformed(let reason):
            response = Self.message(400, reason)
        case .incomplete:
            response = Self.message(400, "the request ended early")
        }
        Self.write(HTTPWire.bytes(of: response), to: exchange.socket)
        close(exchange.socket)
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
        HTTPResponse(
            status: status, headers: ["Content-Type": "application/json"],
            body: Data(#"{"code":"LOCAL","message":"\#(text)","details":null,"hint":null}"#.utf8))
    }
}

/// The local server could not start.
public struct ServerError: Error, CustomStringConvertible {
    let what: String
    public var description: String { "The local HTTP server could not start: \(what)." }
}
