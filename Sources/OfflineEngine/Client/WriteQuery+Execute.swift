import Foundation

extension WriteQuery {
    /// Runs the write under `policy` (see ``WritePolicy``) and decodes its rows into `T` with
    /// the client's ``Configuration/decoder``: asks for the rows back unless `returning:
    /// .minimal` said not to (then `[T]` decodes empty, and a single `T` cannot be decoded).
    ///
    /// ```swift
    /// let saved: [Task] = try await client.from("tasks").insert(tasks).execute().value
    /// let done: Task = try await client.from("tasks").update(["done": true]).eq("id", value: id)
    ///     .single().execute().value
    /// ```
    ///
    /// Sent, the rows are the server's; queued (offline, or behind an earlier queued write),
    /// they are the rows as written on the device (``WriteResponse/rows``), and
    /// ``WriteResponse/isQueued`` says so. It returns only once a queued write is durable. After
    /// ``single()``, a queued write whose one row the device does not hold throws
    /// ``ClientError/queuedWithoutRow``, and a queued write whose rows do not decode into `T`
    /// throws ``QueuedWriteDecodingError``: it is saved all the same.
    public func execute<T: Decodable>(policy: WritePolicy = .offlineFirst) async throws -> WriteResponse<T> {
        guard let client else { throw ClientError.closed }
        var write = self
        if write.mutation.returning == nil, returningChoice != .minimal { write.mutation.returning = "*" }
        let outcome = try await write.run(on: client, policy: policy, rowsAsWritten: true)
        let json: JSONValue
        do {
            json = try shape.json(of: outcome.rows)
        } catch  where outcome.isQueued {
            throw ClientError.queuedWithoutRow
        }
        let value: T
        do {
            value = try json.decode(T.self, with: client.decoder)
        } catch let failure as DecodingError {
            // A queued write never looks failed: it is saved and will sync.
            guard case .queued(let pending) = outcome.result else { throw failure }
            throw QueuedWriteDecodingError(pending: pending, decodingError: failure)
        }
        return WriteResponse(value: value, count: outcome.count, outcome: outcome.result, rows: outcome.rows)
    }

    /// Runs the write under `policy` (see ``WritePolicy``): ``WriteResponse/outcome`` tells sent
    /// (`.sent(rows)`) from queued (`.queued(pending)`, returned only once it is durable).
    ///
    /// ```swift
    /// switch try await client.from("tasks").insert(task).execute().outcome {
    /// case .sent: break                       // the server has it
    /// case .queued(let pending): track(pending.id)   // replayed when the network returns
    /// }
    /// ```
    @discardableResult
    public func execute(policy: WritePolicy = .offlineFirst) async throws -> WriteResponse<Void> {
        guard let client else { throw ClientError.closed }
        let asked = mutation.returning != nil
        let outcome = try await run(on: client, policy: policy, rowsAsWritten: asked)
        if asked, !outcome.isQueued { _ = try shape.json(of: outcome.rows) }
        return WriteResponse(value: (), count: outcome.count, outcome: outcome.result, rows: outcome.rows)
    }

    /// Runs the write; after ``maybeSingle()``, PostgREST's refusal of a one-object write that
    /// matched no row is no row (nothing was written), as supabase-js reads it.
    private func run(on client: OfflineClient, policy: WritePolicy, rowsAsWritten: Bool) async throws
        -> ExecutedWrite
    {
        let options = WriteOptions(count: count, shape: shape, rowsAsWritten: rowsAsWritten)
        do {
            return try await client.openedEngine().execute(mutation, policy: policy, options: options)
        } catch let refusal as PostgrestError
            where shape == .maybeSingle && refusal.code == "PGRST116"
            && refusal.details?.contains(" 0 rows") == true
        {
            return ExecutedWrite(result: .sent([]), count: count == nil ? nil : 0, rows: [])
        }
    }
}
