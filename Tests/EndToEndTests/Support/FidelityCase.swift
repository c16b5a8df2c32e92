import Foundation
import OfflineEngine

/// One request of a case ported from PostgREST's spec suite, with what PostgREST answers to it.
struct FidelityStep: Sendable {
    /// What the answer's body must be.
    enum Body: Sendable {
        /// Not compared (the spec checks only the status or headers).
        case any
        /// No bytes at all.
        case empty
        /// This JSON value (object key order ignored, numbers by value).
        case json(String)
        /// A PostgREST error object with this `code` (its wording is PostgREST's parser's own).
        case errorCode(String)
    }

    var method: HTTPMethod
    /// The path after `/rest/v1/`, query included, as PostgREST's spec sends it.
    var path: String
    var headers: [String: String] = [:]
    var body: String?
    var status: Int
    var expectedBody: Body = .any
    /// Headers the answer must carry with these values; `nil`: the header must be absent.
    var expectedHeaders: [String: String?] = [:]
}

/// A case from PostgREST's `test/spec/Feature/Query/*.hs`: the spec file, the `it "..."` text it
/// comes from, and its requests in order (later ones check what the first one left behind).
struct FidelityCase: Sendable {
    let spec: String
    let name: String
    var steps: [FidelityStep]

    /// Whether the case changes rows, so it needs a database of its own.
    var writes: Bool { steps.contains { $0.method != .get && $0.method != .head } }

    /// A read of `path`.
    static func get(
        _ spec: String, _ name: String, _ path: String, headers: [String: String] = [:], status: Int = 200,
        json: String? = nil, body: FidelityStep.Body? = nil, expect: [String: String?] = [:]
    ) -> FidelityCase {
        send(
            spec, name, .get, path, headers: headers, status: status, json: json, body: body, expect: expect)
    }

    /// A request with any method.
    static func send(
        _ spec: String, _ name: String, _ method: HTTPMethod, _ path: String, headers: [String: String] = [:],
        payload: String? = nil, status: Int, json: String? = nil, body: FidelityStep.Body? = nil,
        expect: [String: String?] = [:]
    ) -> FidelityCase {
        FidelityCase(
            spec: spec, name: name,
            steps: [
                FidelityStep(
                    method: method, path: path, headers: headers, body: payload, status: status,
                    expectedBody: body ?? json.map { .json($0) } ?? .any, expectedHeaders: expect)
            ])
    }

    /// This case followed by a read of `path` answering `json` (what the write left behind).
    func then(_ path: String, json: String, expect: [String: String?] = [:]) -> FidelityCase {
        var copy = self
        copy.steps.append(
            FidelityStep(
                method: .get, path: path, status: 200, expectedBody: .json(json), expectedHeaders: expect))
        return copy
    }
}
