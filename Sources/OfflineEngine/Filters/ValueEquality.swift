import Foundation

/// `column = 'text'` for one row's JSON value, answered only when every column type that renders
/// that JSON value reads the filter's text to the same answer.
///
/// PostgREST binds a filter value as an untyped literal, so the column's type parses it: `eq.007`
/// equals 7 in an integer column and `"007"` nowhere in a text one. The engine sees only the JSON
/// the server sent, so a comparison whose answer depends on the type is can't tell.
enum ValueEquality {
    /// The verdict of `value = text`; `isKey` (asked only when it matters) reads UUID-shaped keys
    /// as UUIDs, in any case.
    static func verdict(_ value: JSONValue, equals text: String, isKey: () -> Bool) -> Verdict {
        switch value {
        case .null:
            return .null
        case .bool(let flag):
            // `boolean` also takes t, yes, on, 1 and prefixes; `jsonb` only true and false.
            switch text {
            case "true": return flag ? .true : .false
            case "false": return flag ? .false : .true
            default: return .undecided
            }
        case .number(let number):
            return numberVerdict(number.text, equals: text)
        case .string(let string):
            if string.utf8.count == 36, text.utf8.count == 36, isKey(),
                !string.utf8.elementsEqual(text.utf8), let key = UUID(uuidString: string),
                let other = UUID(uuidString: text)
            {
                return key == other ? .true : .false
            }
            return stringVerdict(string, equals: text)
        case .array, .object:
            // Arrays compare element-wise by the element type; objects are jsonb or composites.
            return .undecided
        }
    }

    /// A JSON number: an integer, numeric, float or jsonb column.
    private static func numberVerdict(_ value: String, equals text: String) -> Verdict {
        if value.utf8.elementsEqual(text.utf8) { return .true }
        if let left = canonicalInteger(value), let right = canonicalInteger(text) {
            // Different integers written plainly: unequal unless a float rounds them together.
            return Float(left) == Float(right) || Double(left) == Double(right) ? .undecided : .false
        }
        // NaN, Infinity, 0x1F, 1_000 (Postgres 16), words: can't tell (or the server rejects).
        guard let filterNumber = PostgresInput.decimal(text), let number = PostgresInput.decimal(value)
        else { return .undecided }
        // Equal as numbers but written differently (007, +7, 7.0, 7e0, " 7"): the integer types
        // reject some spellings, jsonb others; the engine leaves them undecided.
        if filterNumber == number { return .undecided }
        // Different numbers may still meet once rounded to a float4 or float8.
        let filterText = filterNumber.scientificText
        let valueText = number.scientificText
        if let filterDouble = Double(filterText), let valueDouble = Double(valueText),
            filterDouble == valueDouble
        {
            return .undecided
        }
        if let filterFloat = Float(filterText), let valueFloat = Float(valueText), filterFloat == valueFloat {
            return .undecided
        }
        return .false
    }

    /// An integer written the one way every numeric type writes it (`-12`, `0`; no sign, zero
    /// or space to spare), or `nil`.
    private static func canonicalInteger(_ text: String) -> Int? {
        var magnitude = 0
        var negative = false
        var count = 0
        var first = true
        for byte in text.utf8 {
            if first, byte == UInt8(ascii: "-") {
                negative = true
                first = false
                continue
            }
            guard PostgresInput.isDigit(byte), count < 18 else { return nil }
            if count == 1, magnitude == 0 { return nil }
            magnitude = magnitude * 10 + Int(byte - UInt8(ascii: "0"))
            count += 1
            first = false
        }
        guard count > 0, !(negative && magnitude == 0) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// A JSON string: a text-like column, or any type Postgres renders as a JSON string.
    private static func stringVerdict(_ value: String, equals text: String) -> Verdict {
        var votes = Votes()
        let identical = value.utf8.elementsEqual(text.utf8)
        // text, varchar, enum: byte equality. char(n): trailing spaces ignored. citext: case.
        if identical {
            votes.add(true)
        } else {
            votes.add(false)
            let space = UInt8(ascii: " ")
            if value.utf8.last == space || text.utf8.last == space,
                TextShape.equalIgnoringTrailingSpaces(value, text)
            {
                return .undecided
            }
            if TextShape.mayBeEqualIgnoringCase(value, text) { return .undecided }
        }
        // jsonb holding a JSON string: the text is parsed as JSON (`"abc"` equals it, `abc` is
        // rejected, `123` is a number and unequal).
        if JSONLiteralProbe.mayBeJSON(text) {
            switch JSONLiteralProbe(text) {
            case .invalid: break
            case .string(let decoded): votes.add(decoded.unicodeScalars.elementsEqual(value.unicodeScalars))
            case .otherValue: votes.add(false)
            case .unsure: votes.addUndecided()
            }
        }
        if value.isEmpty {
            // An empty tsvector or hstore equals blank text; an empty bit string equals `x`.
            if text.utf8.allSatisfy(PostgresInput.isSpace) || text == "x" || text == "X" || text == "b"
                || text == "B"
            {
                votes.addUndecided()
            }
        } else if PostgresInput.isCanonicalUUID(value) {
            if let digits = PostgresInput.uuidDigits(text) {
                votes.add(digits.elementsEqual(value.utf8.lazy.filter { $0 != UInt8(ascii: "-") }))
            }
        } else if !identical, let key = UUID(uuidString: value), let other = UUID(uuidString: text) {
            // A UUID the app's encoder wrote in capitals (Foundation's `JSONEncoder` does): as
            // uuid it equals only the same UUID, as text or citext it differs unless only the
            // case does (answered above), so two different UUIDs differ under every type.
            if key == other { votes.addUndecided() } else { votes.add(false) }
        } else if !identical, let point = CanonicalDateTime(value), let other = CanonicalDateTime(text),
            point.kind == other.kind
        {
            // Both written as Postgres writes this type: equal exactly when the points are.
            if point.value == other.value { votes.addUndecided() } else { votes.add(false) }
        } else if !identical, TextShape.mayBeTypedValue(value) {
            votes.addUndecided()
        }
        return votes.verdict
    }
}
