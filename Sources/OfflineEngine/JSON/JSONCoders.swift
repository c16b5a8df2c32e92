import Foundation

/// The JSON encoder and decoder a client starts with (``Configuration/encoder``,
/// ``Configuration/decoder``): dates as ISO 8601 with milliseconds and the offset (UTC), read
/// back in every form PostgREST writes them; Foundation's defaults for everything else (keys as
/// written).
@usableFromInline
package enum JSONCoders {
    /// Writes dates as ISO 8601 in UTC with milliseconds (`2023-11-14T22:13:20.123Z`).
    @usableFromInline
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601Timestamp.string(from: date))
        }
        return encoder
    }

    /// Reads dates as PostgREST writes them: ISO 8601 with or without fractions, with an offset
    /// or without one (a `timestamp` column, read as UTC).
    @usableFromInline
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = ISO8601Timestamp.date(from: text) { return date }
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "A date is not in ISO 8601 form.")
        }
        return decoder
    }
}
