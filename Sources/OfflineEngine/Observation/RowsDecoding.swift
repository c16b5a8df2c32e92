import Foundation

/// How a ``LiveQueryModel`` turns a snapshot's rows into its `rows`: as they are
/// (``QueryRows``), or decoded into the app's type, off the main actor.
///
/// Rows equal to the ones last decoded are not decoded again (duplicates are removed on the raw
/// rows, as GRDB does); when a snapshot's rows are the last ones with rows appended (a live read
/// shares its rows' storage), only the rows that joined are decoded.
package struct RowsDecoding<Rows: Sendable>: Sendable {
    /// Whether turning rows into `Rows` is work worth doing off the main actor.
    let decodes: Bool
    private let all: @Sendable (QueryRows) throws -> Rows
    private let appending: (@Sendable (Rows, [Row]) throws -> Rows)?
    /// The rows last turned into `Rows`, and what they gave (at first no rows, and the model's
    /// empty rows).
    private var last: (raw: QueryRows, rows: Rows)?

    /// The rows as they are.
    package init() where Rows == QueryRows {
        decodes = false
        all = { $0 }
        appending = nil
        last = ([], [])
    }

    /// The rows decoded into `[T]` with `decoder`.
    package init<T: Decodable & Sendable>(_ type: T.Type, decoder: JSONDecoder) where Rows == [T] {
        decodes = true
        all = { raw in try QueryResult(rows: raw).decode([T].self, decoder: decoder) }
        appending = { earlier, joined in
            earlier + (try QueryResult(rows: joined).decode([T].self, decoder: decoder))
        }
        last = ([], [])
    }

    /// Whether `raw` are the rows last turned into `Rows`: nothing to do.
    func isCurrent(_ raw: QueryRows) -> Bool {
        last.map { $0.raw == raw } ?? false
    }

    /// `raw` as `Rows`: only the rows after the last ones when they extend them.
    mutating func rows(of raw: QueryRows) throws -> Rows {
        let rows: Rows
        if let last, let appending, let joined = raw.rows(after: last.raw) {
            rows = try appending(last.rows, joined)
        } else {
            rows = try all(raw)
        }
        last = (raw, rows)
        return rows
    }

    /// How rows are decoded away from the caller: ``decodedOffTheCaller(_:_:)``.
    package typealias OffTheCaller =
        @Sendable (RowsDecoding, QueryRows) async -> (RowsDecoding, Result<Rows, any Error>)

    /// `rows(of:)` on the global executor, never the caller's: decoding stays off the main actor.
    @concurrent
    static func decodedOffTheCaller(
        _ decoding: RowsDecoding, _ raw: QueryRows
    ) async -> (RowsDecoding, Result<Rows, any Error>) {
        var decoding = decoding
        let result = Result { try decoding.rows(of: raw) }
        return (decoding, result)
    }
}
