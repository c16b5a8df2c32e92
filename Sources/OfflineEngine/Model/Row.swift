import Foundation

/// One row of a table as PostgREST returns it: column names to JSON values.
public struct Row: Sendable, Hashable {
    /// The row's columns and their values.
    public var values: [String: JSONValue]

    /// A row from its columns.
    public init(_ values: [String: JSONValue]) {
        self.values = values
    }

    /// The value of a column, or `nil` when the row does not carry that column (not the same as
    /// a JSON `null`).
    public subscript(column: String) -> JSONValue? {
        get { values[column] }
        set { values[column] = newValue }
    }

    /// The columns this row carries.
    public var columns: Set<String> { Set(values.keys) }

    /// The row as a JSON object.
    public var json: JSONValue { .object(values) }

    /// A row from a JSON object, or `nil` when the value is not an object.
    public init?(json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        values = members
    }

    /// A row from an `Encodable` value that encodes as a JSON object: a row struct, or a
    /// realtime client's record (`[String: AnyJSON]`), with the client's encoder by default.
    ///
    /// ```swift
    /// let row = try Row(encoding: action.record)
    /// ```
    public init<T: Encodable>(encoding value: T, encoder: JSONEncoder = JSONCoders.encoder()) throws {
        guard let row = Row(json: try JSONValue(encoding: value, with: encoder)) else {
            throw JSONText.MalformedJSON(reason: "the value is not a JSON object")
        }
        self = row
    }

    /// This row with the columns of `other` written over it.
    public func merging(_ other: Row) -> Row {
        Row(values.merging(other.values, uniquingKeysWith: { _, new in new }))
    }

    /// Decodes the row into a `Decodable` type with `decoder` (pass the client's
    /// ``Configuration/decoder`` when it was changed).
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONCoders.decoder())
        throws
        -> T
    {
        try json.decode(type, with: decoder)
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    /// A row from a dictionary literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension Row {
    /// Rows from a JSON array of objects (a PostgREST response body).
    package static func rows(from json: JSONValue) throws -> [Row] {
        switch json {
        case .array(let elements):
            return try elements.map { element in
                guard let row = Row(json: element) else {
                    throw JSONText.MalformedJSON(reason: "a row is not a JSON object")
                }
                return row
            }
        case .object:
            return Row(json: json).map { [$0] } ?? []
        default:
            throw JSONText.MalformedJSON(reason: "the body is not a list of rows")
        }
    }

    /// Rows from any `Encodable` value: one struct, an array of structs, a dictionary.
    static func rows<T: Encodable>(encoding value: T, with encoder: JSONEncoder = JSONCoders.encoder()) throws
        -> [Row]
    {
        try rows(from: JSONValue(encoding: value, with: encoder))
    }
}
