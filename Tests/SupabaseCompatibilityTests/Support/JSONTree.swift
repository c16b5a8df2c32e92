import Foundation

/// A JSON value compared as a value: object keys in any order, numbers by magnitude.
///
/// The library's `JSONValue` has no public parser, so the tests read bodies with
/// `JSONDecoder` into this.
indirect enum JSONTree: Equatable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    /// The value of JSON text.
    static func parse(_ text: String) throws -> JSONTree {
        try parse(Data(text.utf8))
    }

    /// The value of JSON bytes.
    static func parse(_ data: Data) throws -> JSONTree {
        try JSONDecoder().decode(JSONTree.self, from: data)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONTree].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return String(number)
        case .string(let text): return "\"" + text + "\""
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            let fields = members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
            return "{" + fields.joined(separator: ",") + "}"
        }
    }
}
