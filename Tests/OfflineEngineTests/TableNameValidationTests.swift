import Testing

@testable import OfflineEngine

/// Which table names a request may name: every scalar below U+3000 (and a few beyond) in a
/// name, against the rule written with Unicode's properties alone.
@Suite("Table name validation", .timeLimit(.minutes(10)))
struct TableNameValidationTests {
    /// The rule: no path or query delimiter, `%`, backslash, whitespace, control or format
    /// character.
    static func refuses(_ scalar: Unicode.Scalar) -> Bool {
        let forbidden: Set<Unicode.Scalar> = ["/", "?", "#", "%", "\\"]
        let properties = scalar.properties
        return forbidden.contains(scalar) || properties.isWhitespace || properties.generalCategory == .control
            || properties.generalCategory == .format
    }

    @Test("a name is refused exactly when one of its scalars breaks the rule")
    func everyScalar() {
        let scalars = (0..<0x3000).compactMap(Unicode.Scalar.init) + ["\u{FEFF}", "\u{E0001}", "\u{1F600}"]
        var disagreements: [UInt32] = []
        for scalar in scalars {
            let refused = (try? RequestBuilder.validate(table: "t" + String(Character(scalar)) + "t")) == nil
            if refused != Self.refuses(scalar) { disagreements.append(scalar.value) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).map { String($0, radix: 16) })")
    }
}
