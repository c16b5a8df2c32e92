import Foundation

/// One HTTP response as the transport received it.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, such as 200 or 503.
    public var status: Int
    /// The header fields, looked up without regard to case.
    public var headers: HTTPHeaders
    /// The body, possibly empty.
    public var body: Data

    /// A response from its parts.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is in the 2xx range.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The media type of the body (`application/json`), lower-cased and without parameters.
    public var mediaType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The wait the server asked for in `Retry-After`, when given in seconds.
    public var retryAfter: Duration? {
        guard let text = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces),
            let seconds = Int(text), seconds >= 0
        else { return nil }
        return .seconds(seconds)
    }
}
