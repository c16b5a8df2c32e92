import Foundation

/// What the server's rows say of an INSERT whose earlier answer was lost and whose replay met
/// a row with its key (409, 23505).
enum LostAnswerCheck: Sendable, Equatable {
    /// Every row under the insert's keys holds what was sent: the earlier attempt applied it.
    case applied
    /// A row is missing or provably holds something else: a real conflict.
    case notApplied
    /// The checking read failed: try again later, never "not applied".
    case unknown

    /// Whether the server's value of a column is provably not the value sent, by PostgreSQL's
    /// typed equality as the filter evaluator decides it: `2024-01-15T12:00:00Z` and
    /// `…+00:00`, `1.50` and `1.5` are not provably different, so they count as the same.
    static func provablyDiffers(stored: JSONValue?, sent: JSONValue, isKey: Bool) -> Bool {
        guard let stored, stored != sent else { return false }
        switch (stored, sent) {
        case (.null, _), (_, .null):
            return true
        case (.array, _), (.object, _), (_, .array), (_, .object):
            return false
        default:
            break
        }
        let text: String
        switch sent {
        case .string(let string): text = string
        case .number(let number): text = number.text
        case .bool(let flag): text = flag ? "true" : "false"
        default: return false
        }
        return ValueEquality.verdict(stored, equals: text, isKey: { isKey }) == .false
    }
}
