/// supabase-swift's name for what `from(_:)` returns: here a ``TableQuery``.
///
/// A data layer that names supabase-swift's builder types keeps compiling:
///
/// ```swift
/// let table: PostgrestQueryBuilder = client.from("tasks")
/// var query: PostgrestFilterBuilder = table.select()
/// if let owner { query = query.eq("owner", value: owner) }
/// let page: PostgrestTransformBuilder = query.order("created_at").limit(20)
/// let tasks: [Task] = try await page.execute().value
/// ```
public typealias PostgrestQueryBuilder = TableQuery

/// supabase-swift's name for what `select()` returns, a read to add filters to: here a
/// ``ReadQuery``, which also takes `order`, `limit`, `range`, `single()` and `maybeSingle()`.
///
/// supabase-swift also returns its filter builder from `insert`, `upsert`, `update` and
/// `delete`; here those return a ``WriteQuery``, so a data layer that keeps a write in a
/// variable names that type:
///
/// ```swift
/// let read: PostgrestFilterBuilder = client.from("tasks").select().eq("done", value: false)
/// let write: WriteQuery = client.from("tasks").update(["done": true]).eq("id", value: id)
/// ```
public typealias PostgrestFilterBuilder = ReadQuery

/// supabase-swift's name for what `order`, `limit`, `range`, `single()` and `maybeSingle()`
/// return: here a ``ReadQuery``, the same as ``PostgrestFilterBuilder``.
///
/// ```swift
/// let newest: PostgrestTransformBuilder = client.from("tasks").select().order("created_at").limit(1)
/// ```
public typealias PostgrestTransformBuilder = ReadQuery
