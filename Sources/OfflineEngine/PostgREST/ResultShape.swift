/// What a read's or write's `value` decodes from: every row, or one row (``ReadQuery/single()``,
/// ``ReadQuery/maybeSingle()``).
///
/// The request asks for rows as JSON either way (`Accept: application/json`), and the engine
/// checks the count itself, the same way for the server's rows and the device's, so an answer
/// can be cached as a list and the same read gives the same verdict offline.
package enum ResultShape: Sendable, Hashable {
    /// Every row, as an array.
    case rows
    /// Exactly one row; none or several throw PostgREST's own `PGRST116` refusal.
    case single
    /// One row or none (`null`); several throw `PGRST116`.
    case maybeSingle

    /// The JSON a value decodes from: the rows, or the one row (`null` for none).
    package func json(of rows: some Collection<Row>) throws -> JSONValue {
        switch self {
        case .rows:
            return .array(rows.map(\.json))
        case .single:
            guard rows.count == 1, let row = rows.first else { throw Self.refusal(rows.count) }
            return row.json
        case .maybeSingle:
            guard rows.count <= 1 else { throw Self.refusal(rows.count) }
            return rows.first?.json ?? .null
        }
    }

    /// PostgREST's answer to a request for one object that matched `count` rows.
    static func refusal(_ count: Int) -> PostgrestError {
        PostgrestError(
            status: 406, code: "PGRST116",
            message: "Cannot coerce the result to a single JSON object",
            details: "The result contains \(count) rows", hint: nil)
    }
}
