import Foundation

/// A write being built: an insert, upsert, update or delete, with its filters and options.
///
/// Filters on an embedded table's column (`actors.first_name`) mean nothing to a write's target
/// rows; they are kept as raw ``Filter/unparsed(key:value:)`` parameters, sent as written and
/// never evaluated locally.
public struct WriteQuery: FilterBuilding, ChangedCopy {
    /// The write as the engine keeps and sends it.
    package var mutation: Mutation
    /// The client that runs the write, if it came from one.
    let client: OfflineClient?
    /// The `returning:` the app gave, if any: `.minimal` keeps a typed `execute()` from asking
    /// for rows.
    package var returningChoice: PostgrestReturningOptions?
    /// The count PostgREST is asked for (`count:`), if any; not kept in the queue (a replay's
    /// answer has no reader).
    package var count: CountOption?
    /// Every row or one, for `execute().value`.
    package var shape = ResultShape.rows

    /// A write of `mutation` not tied to a client (for building and inspecting requests).
    package init(_ mutation: Mutation) {
        self.init(client: nil, mutation: mutation)
    }

    init(client: OfflineClient?, mutation: Mutation) {
        self.client = client
        self.mutation = mutation
    }

    public func addingFilter(_ filter: Filter) -> WriteQuery {
        changing { $0.mutation.filters.append(filter) }
    }

    public func addingEmbedParameter(_ parameter: QueryParameter) -> WriteQuery {
        addingFilter(.unparsed(key: parameter.name, value: parameter.value))
    }

    /// Asks for the written rows back (`Prefer: return=representation`) with these columns.
    public func select(_ columns: String = "*") -> WriteQuery {
        changing { $0.mutation.returning = QueryDescription.normalizedSelect(columns) }
    }

    /// Exactly one row: `execute().value` decodes that row (and asks for the rows back); none or
    /// several throw PostgREST's `PGRST116` refusal, for the server's rows or the device's alike.
    ///
    /// ```swift
    /// let saved: Task = try await client.from("tasks").insert(task).select().single().execute().value
    /// ```
    public func single() -> WriteQuery {
        changing { $0.shape = .single }
    }

    /// One row or none: `execute().value` decodes an `Optional`; several throw `PGRST116`.
    public func maybeSingle() -> WriteQuery {
        changing { $0.shape = .maybeSingle }
    }

    /// Makes an update or delete report a conflict when it reaches no row (the row was
    /// deleted, or no longer matches the filters, since the app read it): it is sent with
    /// `Prefer: count=exact`, and an answer counting zero rows is PostgREST's success but not
    /// the app's. Sent at once, it throws ``PostgrestError`` with
    /// ``RejectedMutation/conflictCode`` and the table's lists are fetched again; replayed, it
    /// joins ``OfflineClient/rejectedMutations()`` with that code, for the app to retry or
    /// discard. Kept with the queued write.
    ///
    /// ```swift
    /// try await client.from("tasks").update(["done": true]).eq("id", value: id).expectingRows().execute()
    /// ```
    public func expectingRows(_ expected: Bool = true) -> WriteQuery {
        changing { $0.mutation.expectsRows = expected }
    }

    /// Lets columns a row leaves out take their database default instead of NULL
    /// (`Prefer: missing=default`), for bulk inserts and upserts whose rows carry different keys.
    public func useDefaultsForMissingColumns(_ enabled: Bool = true) -> WriteQuery {
        changing { $0.mutation.useDefaultForMissing = enabled }
    }
}
