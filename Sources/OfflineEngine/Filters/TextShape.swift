/// What a JSON string from the server could be, judged from its text alone: which column types
/// may have rendered it, and which spellings of a filter value those types may read as equal.
enum TextShape {
    /// Whether a type other than the text-like ones (text, varchar, char(n), citext, enum) may
    /// have rendered `value`: a date or time, an interval, a network address, a `uuid`, a number
    /// written as a string (`NaN`, an `oid`), a bit string, a range, a geometric value, money,
    /// `bytea`, a `tsvector`. Such types read other spellings as the same value (`2024-01-15` and
    /// `20240115`, `::1` and `0::1`), so only the exact text is known to be equal.
    static func mayBeTypedValue(_ value: String) -> Bool {
        guard let first = value.utf8.first else { return false }
        switch first {
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "$"), UInt8(ascii: "\\"),
            UInt8(ascii: "@"), UInt8(ascii: ":"):
            // tsvector, hstore, money, bytea, verbose intervals, IPv6.
            return true
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"), UInt8(ascii: "{"):
            // Ranges and geometric values hold numbers or dates, or no letters at all (`(,)`).
            let hasDigit = value.utf8.contains(where: PostgresInput.isDigit)
            let hasLetter = value.utf8.contains {
                ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z")
            }
            if hasDigit || !hasLetter { return true }
        default:
            break
        }
        if value.utf8.count <= 9,
            first == UInt8(ascii: "N") || first == UInt8(ascii: "I")
                || first == UInt8(ascii: "i") || first == UInt8(ascii: "-") || first == UInt8(ascii: "e")
        {
            switch value {
            case "NaN", "Infinity", "-Infinity", "infinity", "-infinity", "empty": return true
            default: break
            }
        }
        var hasDigit = false
        var hasSeparator = false
        var onlyTypedCharacters = true
        var onlyHexAndSeparators = true
        for byte in value.utf8 {
            if PostgresInput.isDigit(byte) {
                hasDigit = true
                continue
            }
            if isHexLetter(byte) { continue }
            // Money, `-$2.50` included.
            if byte == UInt8(ascii: "$") { return true }
            switch byte {
            case UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"):
                hasSeparator = true
                continue
            default:
                onlyHexAndSeparators = false
            }
            if !isTypedCharacter(byte) {
                onlyTypedCharacters = false
                break
            }
        }
        if hasDigit { return onlyTypedCharacters }
        return hasSeparator && onlyHexAndSeparators
    }

    /// Characters that dates, times, intervals (every interval style), network addresses, bit
    /// strings, `pg_lsn` and friends use besides digits, hex letters and separators.
    private static func isTypedCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "+"), UInt8(ascii: ","):
            return true
        // T and Z (ISO timestamps, as encoders write a `Date` in UTC), BC, ISO 8601 intervals
        // (PYMWDTHS).
        case UInt8(ascii: "T"), UInt8(ascii: "Z"), UInt8(ascii: "B"), UInt8(ascii: "C"), UInt8(ascii: "P"),
            UInt8(ascii: "Y"), UInt8(ascii: "M"), UInt8(ascii: "W"), UInt8(ascii: "D"),
            UInt8(ascii: "H"), UInt8(ascii: "S"):
            return true
        // years, mons, days, hours, mins, secs, ago, x (bytea hex).
        case UInt8(ascii: "y"), UInt8(ascii: "r"), UInt8(ascii: "s"), UInt8(ascii: "m"),
            UInt8(ascii: "o"), UInt8(ascii: "n"), UInt8(ascii: "h"), UInt8(ascii: "u"),
            UInt8(ascii: "i"), UInt8(ascii: "g"), UInt8(ascii: "x"):
            return true
        default:
            return false
        }
    }

    private static func isHexLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// Whether two texts are equal once trailing spaces are dropped, as `char(n)` compares.
    static func equalIgnoringTrailingSpaces(_ left: String, _ right: String) -> Bool {
        var leftBytes = Substring(left).utf8[...]
        var rightBytes = Substring(right).utf8[...]
        while leftBytes.last == UInt8(ascii: " ") { leftBytes.removeLast() }
        while rightBytes.last == UInt8(ascii: " ") { rightBytes.removeLast() }
        return leftBytes.elementsEqual(rightBytes)
    }

    /// Whether `citext` might read two different texts as equal: `lower()` maps one character to
    /// one (libc locales), or `İ` to two (ICU), so texts of other lengths never meet; ASCII letters
    /// meet only their other case, except where a locale maps `İ`, `ı`, `ſ` or the Kelvin sign to
    /// an ASCII letter (or `I` to `ı`); two other non-ASCII characters may be each other's case.
    static func mayBeEqualIgnoringCase(_ left: String, _ right: String) -> Bool {
        var leftScalars = left.unicodeScalars.makeIterator()
        var rightScalars = right.unicodeScalars.makeIterator()
        while true {
            let one: Unicode.Scalar
            let other: Unicode.Scalar
            switch (leftScalars.next(), rightScalars.next()) {
            case (nil, nil):
                return true
            case (let leftScalar?, let rightScalar?):
                one = leftScalar
                other = rightScalar
            default:
                return left.unicodeScalars.contains("\u{130}") || right.unicodeScalars.contains("\u{130}")
            }
            if one == other { continue }
            switch (one.isASCII, other.isASCII) {
            case (true, true):
                if lowerASCII(one.value) != lowerASCII(other.value) { return false }
            case (false, false):
                continue
            case (true, false):
                if !mayMeetASCII(other, one) { return false }
            case (false, true):
                if !mayMeetASCII(one, other) { return false }
            }
        }
    }

    /// Whether some locale's `lower()` may make a non-ASCII character and an ASCII one equal.
    private static func mayMeetASCII(_ nonASCII: Unicode.Scalar, _ ascii: Unicode.Scalar) -> Bool {
        switch nonASCII.value {
        case 0x130, 0x131, 0x17F, 0x212A: return true
        default: return ascii == "I" || ascii == "i"
        }
    }

    private static func lowerASCII(_ value: UInt32) -> UInt32 {
        value >= 0x41 && value <= 0x5A ? value + 0x20 : value
    }
}
