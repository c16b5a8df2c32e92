import Foundation

@testable import OfflineEngine

/// The valid inputs the parser fuzzing starts from: queries as apps write them, PostgREST's
/// error bodies with row data planted where PostgreSQL puts it, and the store's form of writes.
enum FuzzSeeds {
    static let queries = [
        "select=id,title,done&done=eq.false&order=created_at.desc.nullslast&limit=20&offset=40",
        #"select=*,author:profiles!user_id(username)&or=(title.ilike.*milk*,and(done.is.true,id.in.(1,2,"3,4")))"#,
        #"select=id&id=in.(a,"b,c","d\"e")&tags=cs.{x,y}&not.or=(a.eq.1,b.neq.2)"#,
        "select=id,name&age=gte.18&age=lt.65&name=not.like.A*&data->>lat=eq.1.5",
        "select=id&title=fts(english).cat&meta=is.null&order=title.asc,id.desc&limit=1",
        "select=items(id,qty)&items.order=qty.desc&items.limit=2&status=in.()",
    ]

    static let errorBodies = [
        #"{"code":"23505","message":"duplicate key value violates unique constraint \"SECRET_pkey\"","details":"Key (id)=(SECRET-ROW) already exists.","hint":null}"#,
        #"{"code":"42501","message":"new row violates row-level security policy for table \"SECRET\"","details":null,"hint":"SECRET hint"}"#,
        #"{"code":"PGRST116","message":"JSON object requested, multiple (or no) rows returned","details":"The result contains 2 rows SECRET","hint":null}"#,
        #"{"code":23514,"message":"SECRET value","details":["SECRET"],"hint":{"a":"SECRET"}}"#,
        #"{"message":"SECRET only a message"}"#,
    ]

    /// The id of the stored writes (the lazy body decoding checks it).
    static let writeID = UUID(uuidString: "F0220000-0000-4000-8000-000000000001")!

    static func storedWrites() -> [Data] {
        let row: Row = [
            "id": 1, "title": "milk \u{1F95B}", "tags": ["a", "b"], "meta": ["n": 1.5, "x": nil],
        ]
        let filters: [Filter] = [
            .condition(FilterCondition(column: "id", op: .eq, operand: .value("1"))),
            .or(
                [
                    .condition(FilterCondition(column: "done", op: .is, operand: .value("true"))),
                    .unparsed(key: "x", value: "y"),
                ], negated: true),
        ]
        return [
            Mutation(id: writeID, ownerID: "user", table: "tasks", operation: .insert, rows: [row, row]),
            Mutation(
                id: writeID, schema: "app", table: "tasks", operation: .upsert, rows: [row],
                onConflict: ["id"],
                ignoreDuplicates: true, returning: "id,title"),
            Mutation(
                id: writeID, table: "tasks", operation: .update, rows: [["done": true]], filters: filters),
            Mutation(id: writeID, table: "tasks", operation: .delete, filters: filters, attempts: 3),
        ].map { $0.persistedData() }
    }
}
