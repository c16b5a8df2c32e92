import Foundation

extension ReadQuery {
    /// Reads once, as supabase-swift's `execute()`, and decodes the rows into `T` with the
    /// client's ``Configuration/decoder``: an array type, or the row's type after ``single()``
    /// (an `Optional` after ``maybeSingle()``).
    ///
    /// ```swift
    /// let tasks: [Task] = try await client.from("tasks").select().order("created_at").execute().value
    /// ```
    ///
    /// From the server when it can; offline or failing, the device's rows (``ReadResponse/isFromCache``),
    /// both with the user's queued writes laid over them. Throws when neither can answer.
    public func execute<T: Decodable>() async throws -> ReadResponse<T> {
        guard let client else { throw ClientError.closed }
        let (result, count) = try await client.openedEngine().fetchOnce(query, options: options)
        let value = try options.shape.json(of: result.rows).decode(T.self, with: client.decoder)
        return ReadResponse(value: value, count: count, result: result)
    }

    /// Reads once without decoding: for the ``ReadResponse/count`` of a `head: true` read, or
    /// the undecoded ``ReadResponse/rows``. After ``single()`` it still throws when the read did
    /// not match exactly one row.
    ///
    /// ```swift
    /// let total = try await client.from("tasks").select("*", head: true, count: .exact).execute().count
    /// ```
    @discardableResult
    public func execute() async throws -> ReadResponse<Void> {
        guard let client else { throw ClientError.closed }
        let (result, count) = try await client.openedEngine().fetchOnce(query, options: options)
        if !options.head { _ = try options.shape.json(of: result.rows) }
        return ReadResponse(value: (), count: count, result: result)
    }
}
