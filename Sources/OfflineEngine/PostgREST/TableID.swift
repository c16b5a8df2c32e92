/// A table in a schema: the unit of change marks, replay logs and pending-write streams.
struct TableID: Sendable, Hashable {
    /// The schema, or `nil` for the default.
    var schema: String?
    /// The table name.
    var table: String

    init(schema: String?, table: String) {
        self.schema = schema == "public" ? nil : schema
        self.table = table
    }

    init(_ query: QueryDescription) { self.init(schema: query.schema, table: query.table) }

    init(_ mutation: Mutation) { self.init(schema: mutation.schema, table: mutation.table) }
}
