import Foundation
import OfflineEngine

/// How the gateway answered one case: as PostgREST does, with a clear refusal (a 400 whose
/// message says what it "does not support"), or otherwise (wrong).
enum FidelityOutcome: Sendable {
    case passed
    case refused(message: String)
    case wrong(request: String, difference: String)

    /// Judges `response` against `step`; `nil` when it matches.
    static func difference(_ response: HTTPResponse, _ step: FidelityStep) -> String? {
        var problems: [String] = []
        if response.status != step.status { problems.append("status \(step.status), got \(response.status)") }
        let got = String(decoding: response.body, as: UTF8.self)
        switch step.expectedBody {
        case .any: break
        case .empty:
            if !response.body.isEmpty { problems.append("an empty body, got \(got)") }
        case .json(let text):
            if let expected = try? JSONText.parse(text), let actual = try? JSONText.parse(response.body),
                FidelityJSON.equal(expected, actual)
            {
                break
            }
            problems.append("body \(compact(text)), got \(got.isEmpty ? "(empty)" : got)")
        case .errorCode(let code):
            if case .object(let object)? = try? JSONText.parse(response.body), object["code"] == .string(code)
            {
                break
            }
            problems.append("an error with code \(code), got \(got.isEmpty ? "(empty)" : got)")
        }
        for (name, value) in step.expectedHeaders.sorted(by: { $0.key < $1.key }) {
            let actual = response.headers[name]
            if actual != value {
                problems.append("\(name): \(value ?? "(absent)"), got \(actual ?? "(absent)")")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The refusal's message, when `response` is the gateway saying it does not support something.
    static func refusal(_ response: HTTPResponse) -> String? {
        guard response.status == 400, case .object(let object)? = try? JSONText.parse(response.body),
            let message = object["message"]?.stringValue, message.contains("does not support")
        else { return nil }
        return message
    }

    private static func compact(_ json: String) -> String {
        (try? JSONText.parse(json)).map { JSONText.string($0) } ?? json
    }
}
