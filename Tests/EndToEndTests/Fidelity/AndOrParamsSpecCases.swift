/// `and`/`or` trees from PostgREST's `AndOrParamsSpec.hs`.
enum AndOrParamsSpecCases {
    static let spec = "AndOrParamsSpec.hs"

    static func ids(_ ids: [Int]) -> String {
        "[" + ids.map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]"
    }

    static let cases = idReads + listed

    /// The reads of `id` alone (`&select=id` after the filters).
    static let idReads = idReadRows.map { name, path, answered in
        FidelityCase.get(spec, name, path + "&select=id", json: ids(answered))
    }

    /// Each read of ``idReads``: the `it` text, the path before `&select=id`, the ids answered.
    static let idReadRows: [(String, String, [Int])] = [
        ("can do simple logic", "entities?or=(id.eq.1,id.eq.2)", [1, 2]),
        ("can negate simple logic", "entities?not.or=(id.eq.1,id.eq.2)", [3, 4]),
        ("can be combined with traditional filters", "entities?or=(id.eq.1,id.eq.2)&name=eq.entity 1", [1]),
        (
            "can be nested inside the same expression",
            "entities?or=(and(name.eq.entity 2,id.eq.2),and(name.eq.entity 1,id.eq.1))", [1, 2]
        ),
        (
            "can be negated while nested",
            "entities?or=(not.and(name.eq.entity 2,id.eq.2),not.and(name.eq.entity 1,id.eq.1))", [1, 2, 3, 4]
        ),
        ("can be combined unnested", "entities?and=(id.eq.1,name.eq.entity 1)&or=(id.eq.1,id.eq.2)", [1]),
        ("can handle lt and gt", "entities?or=(id.lt.2,id.gt.3)", [1, 4]),
        ("can handle lte and gte", "entities?or=(id.lte.2,id.gte.3)", [1, 2, 3, 4]),
        ("can handle like and ilike", "entities?or=(name.like.*1,name.ilike.*ENTITY 2)", [1, 2]),
        ("can handle in", "entities?or=(id.in.(1,2),id.in.(3,4))", [1, 2, 3, 4]),
        ("can handle is", "entities?and=(name.is.null,arr.is.null)", [4]),
        (
            "can handle fts on tsvector columns",
            "entities?or=(text_search_vector.fts.bar,text_search_vector.fts.baz)", [1, 2]
        ),
        ("can handle isdistinct", "entities?and=(id.gte.2,arr.isdistinct.{1,2})", [3, 4]),
        ("can handle cs and cd", "entities?or=(arr.cs.{1,2,3},arr.cd.{1})", [1, 3]),
        ("can handle array operators (eq)", "entities?arr=eq.{1,2,3}", [3]),
        ("can handle array operators (neq)", "entities?arr=neq.{1,2}", [1, 3]),
        ("can handle array operators (lt)", "entities?arr=lt.{2,3}", [1, 2, 3]),
        ("can handle array operators (gt)", "entities?arr=gt.{1,1}", [2, 3]),
        ("can handle array operators (lte)", "entities?arr=lte.{1,2}", [1, 2]),
        ("can handle array operators (ov)", "entities?arr=ov.{2,3}", [2, 3]),
        ("can handle array operators (isdistinct)", "entities?arr=isdistinct.{1,2}", [1, 3, 4]),
        (
            "eq, cs, like can be negated",
            "entities?and=(arr.not.cs.{1,2,3},and(id.not.eq.2,name.not.like.*3))", [1]
        ),
        (
            "in, is, fts can be negated",
            "entities?and=(id.not.in.(1,3),and(name.not.is.null,text_search_vector.not.fts.foo))", [2]
        ),
        ("lt, gte, cd can be negated", "entities?and=(arr.not.cd.{1},or(id.not.lt.1,id.not.gte.3))", [2, 3]),
        (
            "gt, lte, ilike can be negated",
            "entities?and=(name.not.ilike.*ITY2,or(id.not.gt.4,id.not.lte.1))", [1, 2, 3]
        ),
        ("isdistinct can be negated", "entities?and=(id.not.eq.2,arr.not.isdistinct.{1,2,3})", [3]),
        (
            "eq can have quotes",
            #"grandchild_entities?or=(name.eq."(grandchild,entity,4)",name.eq."(grandchild,entity,5)")"#,
            [4, 5]
        ),
        (
            "like and ilike can have quotes",
            #"grandchild_entities?or=(name.like."*ity,4*",name.ilike."*ITY,5)")"#, [4, 5]
        ),
        ("in can have quotes", #"grandchild_entities?or=(id.in.("1","2"),id.in.("3","4"))"#, [1, 2, 3, 4]),
        (
            "allows whitespace",
            "entities?and=( and ( id.in.( 1, 2, 3 ) , id.eq.3 ) , or ( id.eq.2 , id.eq.3 ) )", [3]
        ),
        ("can have a single condition", "entities?or=(id.eq.1)", [1]),
        ("can have three conditions", "grandchild_entities?and=(id.in.(1,2), id.in.(3,1), id.in.(1,4))", [1]),
        (
            "can have four conditions combining and/or",
            "grandchild_entities?or=( id.eq.1, id.eq.2, and(id.in.(1,3), id.in.(2,3)), id.eq.4 )",
            [1, 2, 3, 4]
        ),
        (
            "can have four conditions combining and/or (not.or nested)",
            "grandchild_entities?and=( id.eq.1, not.or(id.eq.2, id.eq.3), id.in.(1,4), or(id.eq.1, id.eq.4) )",
            [1]
        ),
    ]

    static let listed: [FidelityCase] = [
        .get(
            spec, "cannot have zero conditions", "entities?or=()", status: 400, body: .errorCode("PGRST100")),
        .send(
            spec, "used with PATCH succeeds when using and/or params", .patch,
            "grandchild_entities?or=(id.eq.1,id.eq.2)&select=id,name",
            headers: ["Prefer": "return=representation"],
            payload: #"{ "name" : "updated grandchild entity"}"#, status: 200,
            json:
                #"[{ "id": 1, "name" : "updated grandchild entity"},{ "id": 2, "name" : "updated grandchild entity"}]"#
        ),
        .send(
            spec,
            "used with PATCH succeeds when the filtered column is not selected in the returned representation",
            .patch, "entities?select=id&or=(name.is.null,name.like.*test*)",
            headers: ["Prefer": "return=representation"],
            payload: #"{ "name" : "updated entity" }"#, status: 200, json: ids([4])),
        .send(
            spec, "used with DELETE succeeds when using and/or params", .delete,
            "grandchild_entities?or=(id.eq.1,id.eq.2)&select=id,name",
            headers: ["Prefer": "return=representation"],
            status: 200,
            json:
                #"[{ "id": 1, "name" : "grandchild entity 1" },{ "id": 2, "name" : "grandchild entity 2" }]"#),
        .get(
            spec, "can query columns that begin with and/or reserved words",
            "grandchild_entities?or=(and_starting_col.eq.smth, or_starting_col.eq.smth)", status: 200),
    ]
}
