/// A date, timestamp or timestamptz written exactly as Postgres renders it in JSON
/// (`2024-01-15`, `2024-01-15T12:00:00.5`, `2024-01-15T12:00:00+01:00`), read as a point in time.
///
/// Two such texts of the same kind name the same value exactly when their points agree, so a
/// filter copied from another row's date is decidably different. Other spellings (`20240115`,
/// a space for the `T`, `Z`, BC years, offsets with seconds) are not read.
struct CanonicalDateTime: Equatable {
    /// Which type renders this shape.
    enum Kind: Equatable {
        case date
        case timestamp
        case timestampWithTimeZone
    }

    /// The type the shape belongs to.
    let kind: Kind
    /// Microseconds since 1970-01-01 (UTC for timestamptz), or days for a date.
    let value: Int64

    /// Reads `text`, or `nil` when it is not in one of the three rendered shapes.
    init?(_ text: String) {
        let length = text.utf8.count
        guard length >= 10, length <= 32, let first = text.utf8.first, PostgresInput.isDigit(first) else {
            return nil
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for byte in text.utf8 {
            guard bytes.count < 32 else { return nil }
            bytes.append(byte)
        }
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var result = 0
            for index in start..<start + count {
                guard PostgresInput.isDigit(bytes[index]) else { return nil }
                result = result * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return result
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let days = Int64(CanonicalDateTime.daysFromCivil(year: year, month: month, day: day))
        if bytes.count == 10 {
            kind = .date
            value = days
            return
        }
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), let hour = number(11, 2), let minute = number(14, 2),
            let second = number(17, 2), hour <= 24, minute <= 59, second <= 60
        else { return nil }
        var index = 19
        var micros = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, PostgresInput.isDigit(bytes[index]) {
                guard digits < 6 else { return nil }
                micros = micros * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<6 { micros *= 10 }
        }
        var total = days * 86_400_000_000 + Int64((hour * 3600 + minute * 60 + second) * 1_000_000 + micros)
        if index == bytes.count {
            kind = .timestamp
            value = total
            return
        }
        guard bytes.count == index + 6,
            bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
            bytes[index + 3] == UInt8(ascii: ":"), let offsetHours = number(index + 1, 2),
            let offsetMinutes = number(index + 4, 2), offsetMinutes <= 59
        else { return nil }
        let offset = Int64((offsetHours * 60 + offsetMinutes) * 60_000_000)
        total += bytes[index] == UInt8(ascii: "+") ? -offset : offset
        kind = .timestampWithTimeZone
        value = total
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
