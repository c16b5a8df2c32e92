import Foundation
import OfflineEngine

/// JSON equality as PostgREST's spec compares bodies: object key order ignored, array order
/// kept, numbers by value (`1.0` equals `1`).
enum FidelityJSON {
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)):
            return a.text == b.text || (a.decimalValue != nil && a.decimalValue == b.decimalValue)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count
                && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
        default: return false
        }
    }
}
