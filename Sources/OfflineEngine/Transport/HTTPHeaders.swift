import Foundation

/// HTTP header fields looked up without regard to letter case, so `content-type` finds
/// `Content-Type` whichever way the server spelt it.
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The fields keyed by lower-cased name, each with the name as first given.
    private var fields: [String: (name: String, value: String)]

    /// No fields.
    public init() { fields = [:] }

    /// Fields from a dictionary of names and values.
    public init(_ dictionary: [String: String]) {
        fields = [:]
        for (name, value) in dictionary { self[name] = value }
    }

    /// Fields from a dictionary literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = [:]
        for (name, value) in elements { self[name] = value }
    }

    /// The value of a field, whatever the case of `name`; setting `nil` removes it.
    public subscript(name: String) -> String? {
        get { fields[name.lowercased()]?.value }
        set {
            let key = name.lowercased()
            if let newValue {
                fields[key] = (fields[key]?.name ?? name, newValue)
            } else {
                fields[key] = nil
            }
        }
    }

    /// The fields as a dictionary of names (as first given) to values.
    public var dictionary: [String: String] {
        Dictionary(uniqueKeysWithValues: fields.values.map { ($0.name, $0.value) })
    }

    /// The number of fields.
    public var count: Int { fields.count }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.mapValues(\.value) == rhs.fields.mapValues(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.mapValues(\.value))
    }
}
