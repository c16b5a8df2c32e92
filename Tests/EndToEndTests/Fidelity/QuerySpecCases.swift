/// Filters from PostgREST's `QuerySpec.hs` ("Filtering response").
enum QuerySpecCases {
    static let spec = "QuerySpec.hs"
    static let json = "application/json; charset=utf-8"
    static let allItems = (1...15).map { #"{"id":\#($0)}"# }.joined(separator: ",")

    static let cases = listed + rowReads

    /// Rows of `simple_pk`, `chores` and `no_pk` the reads of ``rowReads`` answer.
    static let xyyx = #"{"k":"xyyx","extra":"u"}"#
    static let xYYx = #"{"k":"xYYx","extra":"v"}"#
    static let garbage = #"{"id":1,"name":"take out the garbage","done":true}"#
    static let laundry = #"{"id":2,"name":"do the laundry","done":false}"#
    static let dishes = #"{"id":3,"name":"wash the dishes","done":null}"#
    static let noPk = (null: #"{"a":null,"b":null}"#, one: #"{"a":"1","b":"0"}"#, two: #"{"a":"2","b":"0"}"#)

    /// The reads answered by whole rows of `simple_pk`, `chores` or `no_pk`.
    static let rowReads = rowReadRows.map { name, path, rows in
        FidelityCase.get(spec, name, path, json: "[" + rows.joined(separator: ",") + "]")
    }

    /// Each read of ``rowReads``: the `it` text, the path, the rows answered.
    static let rowReadRows: [(String, String, [String])] = [
        (
            "matches with more than one condition using not operator", "simple_pk?k=like.*yx&extra=not.eq.u",
            []
        ),
        ("matches with like", "simple_pk?k=like.*yx", [xyyx]),
        ("matches with like (case)", "simple_pk?k=like.*YY*", [xYYx]),
        ("matches with like using not operator", "simple_pk?k=not.like.*yx", [xYYx]),
        ("matches with ilike", "simple_pk?k=ilike.xy*&order=extra.asc", [xyyx, xYYx]),
        ("matches with ilike using not operator", "simple_pk?k=not.ilike.xy*&order=extra.asc", []),
        ("matches with ~", "simple_pk?k=match.yx$", [xyyx]),
        ("matches with ~ using not operator", "simple_pk?k=not.match.yx$", [xYYx]),
        ("matches with ~*", "simple_pk?k=imatch.^xy&order=extra.asc", [xyyx, xYYx]),
        ("matches not_null using is operator", "no_pk?a=is.not_null", [noPk.one, noPk.two]),
        ("matches nulls in varchar and numeric fields alike", "no_pk?a=is.null", [noPk.null]),
        ("not.is.not_null is equivalent to is.null", "no_pk?a=not.is.not_null", [noPk.null]),
        ("matches with trilean values", "chores?done=is.true", [garbage]),
        ("matches with trilean values (unknown)", "chores?done=is.unknown", [dishes]),
        (
            "matches with null and not_null values in upper or mixed case", "chores?done=is.NoT_NuLl",
            [garbage, laundry]
        ),
        ("matches with trilean values in upper or mixed case", "chores?done=is.FAlSe", [laundry]),
    ]

    static let listed: [FidelityCase] = [
        .get(
            spec, "matches with equality", "items?id=eq.5", json: #"[{"id":5}]"#,
            expect: ["Content-Range": "0-0/*"]),
        .get(
            spec, "matches with equality using not operator", "items?id=not.eq.5&order=id",
            json: "[" + allItems.replacingOccurrences(of: #"{"id":5},"#, with: "") + "]",
            expect: ["Content-Range": "0-13/*"]),
        .get(
            spec, "matches with inequality using not operator", "items?id=not.lt.14&order=id.asc",
            json: #"[{"id":14},{"id":15}]"#, expect: ["Content-Range": "0-1/*"]),
        .get(
            spec, "matches items IN", "items?id=in.(1,3,5)", json: #"[{"id":1},{"id":3},{"id":5}]"#,
            expect: ["Content-Range": "0-2/*"]),
        .get(
            spec, "matches items NOT IN using not operator",
            "items?id=not.in.(2,4,6,7,8,9,10,11,12,13,14,15)",
            json: #"[{"id":1},{"id":3},{"id":5}]"#, expect: ["Content-Range": "0-2/*"]),
        .get(
            spec, "matches nulls using not operator", "no_pk?a=not.is.null",
            json: #"[{"a":"1","b":"0"},{"a":"2","b":"0"}]"#, expect: ["Content-Type": json]),
        .get(
            spec, "not.is.not_null is equivalent to is.null (integer)", "nullable_integer?a=is.null",
            json: #"[{"a":null}]"#),
        .get(
            spec, "fails if 'is' used and there's no null or trilean value", "chores?done=is.nil", status: 400
        ),
        .get(
            spec, "matches with cs operator", "complex_items?select=id&arr_data=cs.{2}",
            json: #"[{"id":2},{"id":3}]"#),
        .get(
            spec, "matches with cd operator", "complex_items?select=id&arr_data=cd.{1,2,4}",
            json: #"[{"id":1},{"id":2}]"#),
        .get(
            spec, "matches with IS DISTINCT FROM", "no_pk?select=a&a=isdistinct.2",
            json: #"[{"a":null},{"a":"1"}]"#),
        .get(
            spec, "matches with IS DISTINCT FROM using not operator", "no_pk?select=a&a=not.isdistinct.2",
            json: #"[{"a":"2"}]"#),
        .get(
            spec, "Full text search operator: finds matches with to_tsquery",
            "entities?select=id&text_search_vector=fts.foo",
            json: #"[{"id":1}]"#),
        .get(
            spec, "Full text search operator: finds matches with plainto_tsquery",
            "entities?select=id&text_search_vector=plfts.qux", json: #"[{"id":2}]"#),
        .get(
            spec, "matches with computed column", "items?always_true=eq.true&order=id.asc",
            json: "[" + allItems + "]"),
        .get(
            spec, "order by computed column", "items?order=anti_id.desc", json: "[" + allItems + "]"),
        .get(
            spec, "cannot access a computed column that is outside of the config schema",
            "items?always_false=is.false", status: 400),
        .get(
            spec, "fails if an operator is not given", "items?id=0", status: 400, body: .errorCode("PGRST100")
        ),
        .get(
            spec, "values with quotes in IN: succeeds when only quoted values are present",
            #"w_or_wo_comma_names?name=in.("Hebdon, John","Williams, Mary","Smith, Joseph")"#,
            json: #"[{"name":"Hebdon, John"},{"name":"Williams, Mary"},{"name":"Smith, Joseph"}]"#),
        .get(
            spec, "values with quotes in NOT IN: succeeds when only quoted values are present",
            #"w_or_wo_comma_names?name=not.in.("Hebdon, John","Williams, Mary","Smith, Joseph")&limit=3"#,
            json: #"[{"name":"David White"},{"name":"Larry Thompson"},{"name":"Double O Seven(007)"}]"#),
        .get(
            spec, "succeeds w/ and w/o quoted values",
            #"w_or_wo_comma_names?name=in.(David White,"Hebdon, John")"#,
            json: #"[{"name":"Hebdon, John"},{"name":"David White"}]"#),
        .get(
            spec, "succeeds w/ and w/o quoted values (parenthesis inside quotes)",
            #"w_or_wo_comma_names?name=in.("Double O Seven(007)")"#,
            json: #"[{"name":"Double O Seven(007)"}]"#),
        .get(
            spec, "accepts escaped double quotes",
            #"w_or_wo_comma_names?name=in.("Double\"Quote\"McGraw\"")"#,
            json: #"[{"name":"Double\"Quote\"McGraw\""}]"#),
        .get(
            spec, "accepts escaped backslashes", #"w_or_wo_comma_names?name=in.("\\")"#,
            json: #"[{"name":"\\"}]"#),
        .get(
            spec, "passes any escaped char as the same char",
            #"w_or_wo_comma_names?name=in.("D\a\vid W\h\ite")"#,
            json: #"[{"name":"David White"}]"#),
        .get(
            spec, "IN values without quotes: accepts single double quotes as values",
            #"w_or_wo_comma_names?name=in.(")"#, json: #"[{"name":"\""}]"#),
        .get(
            spec, "IN values without quotes: accepts backslashes as values",
            #"w_or_wo_comma_names?name=in.(\)"#, json: #"[{"name":"\\"}]"#),
        .get(
            spec, "IN empty set: works for integer", "items_with_different_col_types?int_data=in.()",
            json: "[]"),
        .get(
            spec, "IN empty set: works for text", "items_with_different_col_types?text_data=in.()", json: "[]"
        ),
        .get(
            spec, "IN empty set: works for date", "items_with_different_col_types?date_data=in.()", json: "[]"
        ),
        .get(
            spec, "returns all results for not.in when no value is present",
            "items_with_different_col_types?int_data=not.in.()&select=int_data", json: #"[{"int_data":1}]"#),
        .get(
            spec, "returns an empty result ignoring spaces",
            "items_with_different_col_types?int_data=in.(    )", json: "[]"),
        .get(
            spec, "only returns an empty result set if the in value is empty",
            "items_with_different_col_types?int_data=in.( ,3,4)", status: 400,
            json:
                #"{"hint":null,"details":null,"code":"22P02","message":"invalid input syntax for type integer: \"\""}"#
        ),
        .get(
            spec, "works with an empty eq filter", "empty_string?string=eq.&select=id,string",
            json: #"[{"id":1,"string":""}]"#),
        .get(
            spec, "Querying a nonexistent table causes a 404", "faketable", status: 404,
            json:
                #"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'public.faketable' in the schema cache"}"#
        ),
        .get(
            spec, "invalid resource path: return http status 404", "first/second/third?select=*", status: 404,
            json:
                #"{"code":"PGRST125","details":null,"hint":null,"message":"Invalid path specified in request URL"}"#
        ),
    ]
}
