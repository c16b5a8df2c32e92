import Testing

@testable import OfflineEngine

/// One test per rule of the filter evaluator; the differential test proves them against a real
/// PostgreSQL, these pin them down by name.
@Suite("Filter rules", .timeLimit(.minutes(10)))
struct FilterRuleTests {
    let evaluator = FilterEvaluator(keyColumns: ["id"])

    func condition(
        _ column: String, _ op: FilterOperator, _ value: String, negated: Bool = false
    ) -> Filter {
        .condition(FilterCondition(column: column, op: op, operand: .value(value), negated: negated))
    }

    func inList(_ column: String, _ items: [String], negated: Bool = false) -> Filter {
        .condition(FilterCondition(column: column, op: .in, operand: .list(items), negated: negated))
    }

    func truth(_ filter: Filter, _ row: Row) -> Truth { evaluator.evaluate(filter, on: row) }

    @Test(
        "a UUID an app's encoder wrote in capitals is unequal to a different UUID, and undecided against the same one in lower case"
    )
    func uuidsInCapitals() {
        let row: Row = ["channel_id": "62587E03-5CBE-47B1-89B0-2CB863A7998D"]
        #expect(truth(condition("channel_id", .eq, "c0000000-0000-4000-8000-000000000001"), row) == .false)
        #expect(truth(inList("channel_id", ["c0000000-0000-4000-8000-000000000001"]), row) == .false)
        // The same UUID in lower case: equal as uuid, unequal as text.
        #expect(truth(condition("channel_id", .eq, "62587e03-5cbe-47b1-89b0-2cb863a7998d"), row) == .unknown)
    }

    @Test(
        "a date the app's encoder wrote in UTC with Z is undecided against another spelling of a time, or a date"
    )
    func datesWrittenWithZ() {
        // As `JSONEncoder` (and this library's encoder) write a `Date`: a timestamptz column
        // reads it as the same instant as the server's `+00:00`, a date column as its day.
        let row: Row = ["starts_at": "2024-01-15T12:00:00.000Z"]
        for other in [
            "2024-01-15T12:00:00+00:00", "2024-01-15T13:00:00+01:00", "2024-01-15", "2024-01-15T12:00:00Z",
        ] {
            #expect(truth(condition("starts_at", .eq, other), row) == .unknown, "\(other)")
            #expect(truth(inList("starts_at", [other]), row) == .unknown, "\(other)")
        }
        #expect(truth(condition("starts_at", .eq, "2024-01-15T12:00:00.000Z"), row) == .true)
    }

    @Test("eq, neq and in on a NULL column are not true, nor are their not. forms")
    func nullColumn() {
        let row: Row = ["title": nil]
        for negated in [false, true] {
            #expect(truth(condition("title", .eq, "a", negated: negated), row) == .false)
            #expect(truth(condition("title", .neq, "a", negated: negated), row) == .false)
            #expect(truth(inList("title", ["a", "b"], negated: negated), row) == .false)
        }
    }

    @Test("in.() is false and not.in.() is true, even on a NULL column")
    func emptyList() {
        for row: Row in [["n": 1], ["n": nil], ["n": "x"]] {
            #expect(truth(inList("n", []), row) == .false)
            #expect(truth(inList("n", [], negated: true), row) == .true)
        }
    }

    @Test("an in list never holds SQL NULL: in.(NULL) compares with the text NULL")
    func inListNull() {
        #expect(truth(inList("title", ["NULL"]), ["title": "NULL"]) == .true)
        #expect(truth(inList("title", ["NULL"]), ["title": nil]) == .false)
        #expect(truth(inList("title", ["NULL", "a"]), ["title": "b"]) == .false)
        #expect(truth(inList("title", ["b", "a"]), ["title": "a"]) == .true)
        #expect(truth(inList("title", ["b", "a"], negated: true), ["title": "a"]) == .false)
    }

    @Test("identical text and numbers are equal, plainly different ones are not")
    func plainValues() {
        #expect(truth(condition("title", .eq, "Buy milk"), ["title": "Buy milk"]) == .true)
        #expect(truth(condition("title", .eq, "Call mom"), ["title": "Buy milk"]) == .false)
        #expect(truth(condition("title", .neq, "Call mom"), ["title": "Buy milk"]) == .true)
        #expect(truth(condition("n", .eq, "42"), ["n": 42]) == .true)
        #expect(truth(condition("n", .eq, "43"), ["n": 42]) == .false)
        #expect(truth(condition("n", .eq, "1.50"), ["n": .number(JSONNumber(text: "1.50")!)]) == .true)
        #expect(truth(condition("done", .eq, "false"), ["done": false]) == .true)
        #expect(truth(condition("done", .eq, "true"), ["done": false]) == .false)
        let uuid = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
        #expect(truth(condition("owner", .eq, uuid), ["owner": .string(uuid)]) == .true)
        #expect(
            truth(condition("owner", .eq, "b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), ["owner": .string(uuid)])
                == .false)
    }

    @Test(
        "a comparison whose answer depends on the column's type is unknown",
        arguments: [
            ("007", JSONValue.number(JSONNumber(7))),  // leading zeros: int yes, jsonb rejects
            ("+7", .number(JSONNumber(7))),  // sign
            (" 7", .number(JSONNumber(7))),  // spaces
            ("7.0", .number(JSONNumber(7))),  // numeric yes, int rejects
            ("1e0", .number(JSONNumber(1))),
            ("9007199254740993", .number(JSONNumber(text: "9007199254740992")!)),  // float8 rounds
            ("NaN", .number(JSONNumber(7))),
            ("inf", .string("Infinity")),
            ("yes", .bool(true)),  // boolean words
            ("t", .bool(true)),
            ("1", .bool(true)),
            ("\"abc\"", .string("abc")),  // a quoted literal equals a jsonb string
            ("123", .string("123")),  // jsonb reads 123 as a number, text as text
            ("ABC", .string("abc")),  // citext
            ("abc ", .string("abc")),  // char(n) ignores trailing spaces
            ("08-00-2b-01-02-03", .string("08:00:2b:01:02:03")),  // macaddr spellings
            ("10.0.0.1/32", .string("10.0.0.1")),  // inet masks
            ("2024-01-15 12:00:00+00", .string("2024-01-15T12:00:00+00:00")),  // timestamps
            ("20240115", .string("2024-01-15")),  // dates
            ("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", .string("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")),
            ("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", .string("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")),
            (" ", .string("")),  // an empty tsvector equals blank text
            ("{a,b}", .array(["a", "b"])),  // arrays
            ("{\"a\":1}", .object(["a": 1])),  // jsonb objects
        ])
    func typeDependent(text: String, value: JSONValue) {
        let row = Row(["c": value])
        #expect(truth(condition("c", .eq, text), row) == .unknown)
        #expect(truth(condition("c", .neq, text), row) == .unknown)
        #expect(truth(inList("c", [text]), row) == .unknown)
    }

    @Test("dates and timestamps written as Postgres writes them are equal exactly when their instants are")
    func canonicalDates() {
        #expect(truth(condition("d", .eq, "2024-01-16"), ["d": "2024-01-15"]) == .false)
        #expect(truth(condition("d", .neq, "2024-01-16"), ["d": "2024-01-15"]) == .true)
        let stamp: Row = ["t": "2024-01-15T12:00:00+01:00"]
        #expect(truth(condition("t", .eq, "2024-01-15T12:00:01+01:00"), stamp) == .false)
        #expect(truth(condition("t", .eq, "2024-01-15T11:00:00+00:00"), stamp) == .unknown)
        #expect(truth(condition("t", .eq, "2024-01-15T12:00:00"), stamp) == .unknown)
        #expect(
            truth(condition("t", .eq, "2024-01-15T12:00:00.5"), ["t": "2024-01-15T12:00:00.50"]) == .unknown)
        #expect(truth(condition("t", .eq, "2024-01-15T12:00:00.5"), ["t": "2024-01-15T12:00:00.6"]) == .false)
    }

    @Test("JSON null is read as SQL NULL (the documented jsonb limit)")
    func jsonNullIsSQLNull() {
        let row: Row = ["data": nil]
        #expect(truth(condition("data", .is, "null"), row) == .true)
        #expect(truth(condition("data", .is, "not_null"), row) == .false)
        #expect(truth(condition("data", .eq, "null"), row) == .false)
    }

    @Test("keys are read as UUIDs: a key in capitals matches the same key in lower case")
    func keysAsUUIDs() {
        let lower = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
        let upper = lower.uppercased()
        #expect(truth(condition("id", .eq, upper), ["id": .string(lower)]) == .true)
        #expect(truth(inList("id", [upper]), ["id": .string(lower)]) == .true)
        #expect(truth(condition("id", .neq, upper), ["id": .string(lower)]) == .false)
        // Not a key column: it may be text, where case counts.
        #expect(truth(condition("owner", .eq, upper), ["owner": .string(lower)]) == .unknown)
        let keyed = FilterEvaluator(keyColumns: ["name"])
        #expect(keyed.evaluate(condition("name", .eq, upper), on: ["name": .string(lower)]) == .true)
        #expect(keyed.evaluate(condition("id", .eq, upper), on: ["id": .string(lower)]) == .unknown)
    }

    @Test("a column the row does not carry is unknown, never NULL")
    func missingColumn() {
        let row: Row = ["id": 1]
        #expect(truth(condition("title", .is, "null"), row) == .unknown)
        #expect(truth(condition("title", .eq, "a"), row) == .unknown)
        #expect(truth(inList("title", ["a"], negated: true), row) == .unknown)
        #expect(truth(inList("title", []), row) == .unknown)
    }

    @Test("a JSON path and an unparsed parameter are unknown")
    func pathsAndUnparsed() {
        let row: Row = ["data": ["k": "v"], "data->>k": "v"]
        #expect(truth(condition("data->>k", .eq, "v"), row) == .unknown)
        #expect(truth(condition("data->k", .is, "null"), row) == .unknown)
        #expect(truth(.unparsed(key: "title", value: "eq"), row) == .unknown)
    }

    @Test(
        "every operator but eq, neq, in and is is unknown",
        arguments: [
            "gt", "gte", "lt", "lte", "like", "ilike", "match", "imatch", "fts", "plfts", "cs", "cd",
            "ov", "sl", "adj", "isdistinct", "like(any)", "eq(any)",
        ])
    func otherOperators(op: String) {
        let row: Row = ["n": 5, "title": "abc"]
        #expect(truth(condition("n", FilterOperator(rawValue: op), "5"), row) == .unknown)
        #expect(
            truth(condition("title", FilterOperator(rawValue: op), "abc", negated: true), row) == .unknown)
    }

    @Test("Kleene logic: false decides an and, true decides an or, not keeps unknown unknown")
    func kleene() {
        let row: Row = ["a": 1, "b": "x", "c": nil]
        let isTrue = condition("a", .eq, "1")
        let isFalse = condition("a", .eq, "2")
        let cannotTell = condition("a", .gt, "0")
        let isNull = condition("c", .eq, "x")
        #expect(truth(.and([isFalse, cannotTell], negated: false), row) == .false)
        #expect(truth(.and([isTrue, cannotTell], negated: false), row) == .unknown)
        #expect(truth(.or([isTrue, cannotTell], negated: false), row) == .true)
        #expect(truth(.or([isFalse, cannotTell], negated: false), row) == .unknown)
        #expect(truth(.and([isTrue, cannotTell], negated: true), row) == .unknown)
        #expect(truth(.or([isFalse, isNull], negated: false), row) == .false)
        #expect(truth(.and([isTrue, isTrue], negated: true), row) == .false)
        #expect(evaluator.evaluate([isTrue, isFalse], on: row) == .false)
        #expect(evaluator.evaluate([isTrue, cannotTell], on: row) == .unknown)
        #expect(evaluator.evaluate([], on: row) == .true)
    }

    @Test("NULL under not stays NULL and keeps the row out; can't tell under not stays unknown")
    func notOfNull() {
        let row: Row = ["a": 1, "c": nil]
        let isNull = condition("c", .eq, "x")
        #expect(truth(.or([isNull], negated: true), row) == .false)
        #expect(truth(.and([isNull, condition("a", .eq, "1")], negated: true), row) == .false)
        // NULL AND can't-tell may be FALSE, whose NOT is TRUE: can't tell.
        #expect(truth(.and([isNull, condition("a", .gt, "0")], negated: true), row) == .unknown)
        // NULL OR FALSE is NULL; NOT NULL is NULL.
        #expect(truth(.or([isNull, condition("a", .eq, "2")], negated: true), row) == .false)
    }

    @Test("is.null and is.not_null read any value; is.true, is.false and is.unknown only booleans")
    func isTests() {
        #expect(truth(condition("c", .is, "null"), ["c": "x"]) == .false)
        #expect(truth(condition("c", .is, "not_null"), ["c": 0]) == .true)
        #expect(truth(condition("c", .is, "null", negated: true), ["c": nil]) == .false)
        #expect(truth(condition("done", .is, "true"), ["done": true]) == .true)
        #expect(truth(condition("done", .is, "false"), ["done": true]) == .false)
        #expect(truth(condition("done", .is, "unknown"), ["done": nil]) == .true)
        #expect(truth(condition("done", .is, "true"), ["done": nil]) == .false)
        #expect(truth(condition("done", .is, "true", negated: true), ["done": nil]) == .true)
        #expect(truth(condition("done", .is, "false", negated: true), ["done": false]) == .false)
        // On another type Postgres rejects the request.
        #expect(truth(condition("title", .is, "true"), ["title": "true"]) == .unknown)
        #expect(truth(condition("n", .is, "false"), ["n": 0]) == .unknown)
        #expect(truth(condition("n", .is, "maybe"), ["n": 0]) == .unknown)
    }

    @Test("is words are case-insensitive")
    func isWordsIgnoreCase() {
        #expect(truth(condition("c", .is, "NULL"), ["c": nil]) == .true)
        #expect(truth(condition("c", .is, "Not_Null"), ["c": nil]) == .false)
        #expect(truth(condition("done", .is, "TRUE"), ["done": true]) == .true)
    }

    @Test("is.null on an object with a null member is unknown: it may be a composite row")
    func compositeNulls() {
        #expect(truth(condition("c", .is, "null"), ["c": ["a": nil, "b": 1]]) == .unknown)
        #expect(truth(condition("c", .is, "not_null"), ["c": ["a": nil]]) == .unknown)
        #expect(truth(condition("c", .is, "null"), ["c": ["a": 1]]) == .false)
    }

    @Test("a SQL NULL result reads as false: the server leaves the row out")
    func nullIsFalseAtTheTop() {
        let row: Row = ["c": nil]
        #expect(evaluator.evaluate([condition("c", .eq, "x")], on: row) == .false)
        #expect(evaluator.evaluate(condition("c", .neq, "x", negated: true), on: row) == .false)
    }

    @Test(
        "supabase-swift's named filters: notIn is evaluated on the device; patterns over lists, arrays, ranges and text search stay unknown"
    )
    func namedFilters() {
        let evaluator = FilterEvaluator(keyColumns: ["id"])
        let row: Row = ["id": 2, "title": "milk and eggs", "tags": "{a,b}", "ages": "[10,20)"]
        let table = TableQuery(table: "tasks").select()
        #expect(evaluator.evaluate(table.notIn("id", values: [1, 3]).query.filters, on: row) == .true)
        #expect(evaluator.evaluate(table.notIn("id", values: [2]).query.filters, on: row) == .false)
        let undecidable = [
            table.likeAllOf("title", patterns: ["*milk*", "*eggs*"]),
            table.iLikeAnyOf("title", patterns: ["*MILK*"]),
            table.contains("tags", value: "{a}"), table.containedBy("tags", value: "{a,b,c}"),
            table.overlaps("tags", value: "{b}"), table.rangeLt("ages", range: "[30,40)"),
            table.rangeAdjacent("ages", range: "[20,30)"), table.textSearch("title", query: "milk"),
        ]
        for read in undecidable {
            #expect(evaluator.evaluate(read.query.filters, on: row) == .unknown, "\(read.query.filters)")
        }
    }
}
