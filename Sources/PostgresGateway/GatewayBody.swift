import Foundation
import OfflineEngine

/// A write's JSON body as PostgREST reads it, and its values as the text PostgreSQL's input
/// functions read.
enum GatewayBody {
    /// The objects of an insert's body (one object, or an array of them).
    static func objects(_ body: Data?) throws(GatewayRefusal) -> [[String: JSONValue]] {
        switch try parse(body) {
        case .object(let object): return [object]
        case .array(let items):
            var objects: [[String: JSONValue]] = []
            for item in items {
                guard case .object(let object) = item else {
                    throw GatewayRefusal(status: 400, code: "PGRST102", message: "All object keys must match")
                }
                objects.append(object)
            }
            return objects
        default: throw invalid
        }
    }

    /// An update's columns: one object (`{}`, `[]` and `[{}]` change nothing).
    static func patch(_ body: Data?) throws -> [String: JSONValue] {
        switch try parse(body) {
        case .object(let object): return object
        case .array(let items) where items.isEmpty: return [:]
        case .array(let items) where items.count == 1:
            if case .object(let object) = items[0], object.isEmpty { return [:] }
            throw GatewaySQL.Unsupported(what: "an update with an array body")
        case .array: throw GatewaySQL.Unsupported(what: "an update with an array body")
        default: throw invalid
        }
    }

    /// A JSON value as the text PostgreSQL's input function for the column reads (`nil`: NULL).
    static func text(of value: JSONValue) -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return number.description
        case .array, .object: return JSONText.string(value)
        }
    }

    /// A JSON array as a PostgreSQL array literal (`{1,"a b",NULL}`).
    static func arrayLiteral(_ items: [JSONValue]) -> String {
        let elements = items.map { item -> String in
            switch item {
            case .null: return "NULL"
            case .array(let inner): return arrayLiteral(inner)
            default: return GatewaySQL.arrayElement(text(of: item) ?? "")
            }
        }
        return "{" + elements.joined(separator: ",") + "}"
    }

    private static let invalid = GatewayRefusal(
        status: 400, code: "PGRST102", message: "Empty or invalid json")

    private static func parse(_ body: Data?) throws(GatewayRefusal) -> JSONValue {
        guard let body, let value = try? JSONText.parse(body) else { throw invalid }
        return value
    }
}
