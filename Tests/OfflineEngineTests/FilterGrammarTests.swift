import Foundation
import OfflineEngineTesting
import Testing

@testable import OfflineEngine

private func condition(
    _ column: String, _ op: FilterOperator, _ operand: FilterOperand, negated: Bool = false
) -> Filter {
    .condition(FilterCondition(column: column, op: op, operand: operand, negated: negated))
}

private let alphabet: [String] = [
    ",", "(", ")", "\"", "\\", ":", "{", "}", ".", " ", "\t", "a", "b", "Z", "0", "9", "é", "e\u{301}",
    "😀", "*", "%", "+", "&", "=", "not", "in", "\u{A0}", "\u{2003}", "\n", "null",
]

private func randomString(_ generator: inout SeededRandom) -> String {
    let length = Int.random(in: 0...8, using: &generator)
    return (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
}

@Suite("Filter grammar", .timeLimit(.minutes(10)))
struct FilterGrammarTests {
    @Test("an or-string parses into the structured logic tree")
    func logicTree() {
        let filter = TableQuery(table: "t").select().or(#"a.eq.1,b.in.(x,"y,z"),not.and(c.is.null,d.neq.2)"#)
            .query.filters
        #expect(
            filter == [
                .or(
                    [
                        condition("a", .eq, .value("1")),
                        condition("b", .in, .list(["x", "y,z"])),
                        .and(
                            [condition("c", .is, .value("null")), condition("d", .neq, .value("2"))],
                            negated: true),
                    ], negated: false)
            ])
    }

    @Test(
        "spaces around a nested and( … ) or or( … ), its parentheses and commas parse, as PostgREST's lexemes allow"
    )
    func logicTreeWithSpaces() {
        let filter = TableQuery(table: "t").select().or(
            " and ( id.in.( 1, 2, 3 ) , id.eq.3 ) , or ( id.eq.2 , id.eq.3 ) "
        )
        .query.filters
        #expect(
            filter == [
                .or(
                    [
                        .and(
                            [
                                condition("id", .in, .list(["1", " 2", " 3 "])),
                                condition("id", .eq, .value("3 ")),
                            ],
                            negated: false),
                        .or(
                            [condition("id", .eq, .value("2 ")), condition("id", .eq, .value("3 "))],
                            negated: false),
                    ], negated: false)
            ])
    }

    @Test("logic-tree values: quoted with escapes, array literals, raw up to , or )")
    func logicValues() {
        let parts = FilterGrammar.logicParts(
            #"(n.eq."a\"b\\c",tags.cs.{a,b},x.eq."q"r,f.fts(english).cat,s.like(any).{A*,B*})"#)
        #expect(
            parts == [
                condition("n", .eq, .value(#"a"b\c"#)),
                condition("tags", .cs, .value("{a,b}")),
                condition("x", .eq, .value(#""q"r"#)),
                condition("f", FilterOperator(rawValue: "fts(english)"), .value("cat")),
                condition("s", FilterOperator(rawValue: "like(any)"), .value("{A*,B*}")),
            ])
    }

    @Test("in-lists: quoted elements, raw elements, spaces after ( skipped, empty lists")
    func inLists() {
        #expect(FilterGrammar.list(#"(1,"a,b")"#) == ["1", "a,b"])
        #expect(
            FilterGrammar.list(#"("Quote:\"","Backslash:\\","\a")"#) == [#"Quote:""#, #"Backslash:\"#, "a"])
        #expect(FilterGrammar.list("(  1, 2 )") == ["1", " 2 "])
        #expect(FilterGrammar.list("( ,3)") == ["", "3"])
        #expect(FilterGrammar.list("()") == [])
        #expect(FilterGrammar.list("(   )") == [])
        #expect(FilterGrammar.list(#"("")"#) == [""])
        #expect(FilterGrammar.list(#"(a"b,c\d)"#) == [#"a"b"#, #"c\d"#])
        #expect(FilterGrammar.list(#"("x"y)"#) == [#""x"y"#])
        #expect(FilterGrammar.list("(1,2") == nil)
        #expect(FilterGrammar.list("1,2") == nil)
        #expect(FilterGrammar.list("(1)x") == nil)
    }

    @Test("filter and not parse in-lists into .list and keep the negation")
    func filterAndNot() {
        let query = TableQuery(table: "t").select().filter("tag", operator: "in", value: #"(1,"a,b")"#)
            .not("id", operator: "in", value: "(1,2)").not("d", operator: "is", value: "null")
        #expect(
            query.query.filters == [
                condition("tag", .in, .list(["1", "a,b"])),
                condition("id", .in, .list(["1", "2"]), negated: true),
                condition("d", .is, .value("null"), negated: true),
            ])
    }

    @Test(
        "text the engine cannot read is kept verbatim as unparsed",
        arguments: [
            ("or", "a.bogus.1"), ("or", "a.eq.1,(b.eq.2"), ("or", ""), ("or", "a.is.maybe"),
            ("or", "a.eq.1,"),
        ])
    func unparsedOr(key: String, text: String) {
        let filters = TableQuery(table: "t").select().or(text).query.filters
        #expect(filters == [.unparsed(key: key, value: "(" + text + ")")])
    }

    @Test("a top-level filter that does not parse is unparsed and sent as written")
    func unparsedFilter() throws {
        let query = TableQuery(table: "t").select().filter("id", operator: "in", value: "1,2")
            .filter("n", operator: "weird", value: "x")
        #expect(
            query.query.filters == [
                .unparsed(key: "id", value: "in.1,2"), .unparsed(key: "n", value: "weird.x"),
            ])
        let parameters = try RequestBuilder.queryParameters(for: query.query)
        #expect(parameters.dropFirst().map(\.value) == ["in.1,2", "weird.x"])
    }

    @Test("the in builder keeps values as they are; top-level values are verbatim")
    func builderValues() {
        let query = TableQuery(table: "t").select().in("id", values: ["(1,2)", "\"q\""]).eq("s", value: "a,b")
        #expect(
            query.query.filters == [
                condition("id", .in, .list(["(1,2)", "\"q\""])), condition("s", .eq, .value("a,b")),
            ])
    }

    @Test("a dotted column goes to the embed parameters, a quoted one stays a filter")
    func embedScoped() {
        let query = TableQuery(table: "films").select().eq("actors.first_name", value: "A")
            .eq("\"information.cpe\"", value: "B")
        #expect(query.query.embedParameters == [QueryParameter(name: "actors.first_name", value: "eq.A")])
        #expect(query.query.filters == [condition("\"information.cpe\"", .eq, .value("B"))])
        let write = TableQuery(table: "films").delete().eq("actors.first_name", value: "A")
        #expect(write.mutation.filters == [.unparsed(key: "actors.first_name", value: "eq.A")])
    }

    @Test("rendered in-lists read back to the same elements (random strings)")
    func listRoundTrip() {
        var generator = SeededRandom(seed: 42)
        for _ in 0..<2_000 {
            let elements = (0..<Int.random(in: 0...4, using: &generator)).map { _ in randomString(&generator)
            }
            let text = FilterRendering.list(elements)
            #expect(FilterGrammar.list(text) == elements, "\(text)")
        }
    }

    @Test("rendered logic trees read back to the same tree (random strings)")
    func treeRoundTrip() throws {
        var generator = SeededRandom(seed: 7)
        let ops: [FilterOperator] = [.eq, .neq, .like, .gt, .cs]
        for _ in 0..<1_000 {
            func leaf() -> Filter {
                if Bool.random(using: &generator) {
                    let list = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        randomString(&generator)
                    }
                    return condition("c", .in, .list(list), negated: Bool.random(using: &generator))
                }
                return condition(
                    "col_\(Int.random(in: 0...9, using: &generator))", ops.randomElement(using: &generator)!,
                    .value(randomString(&generator)), negated: Bool.random(using: &generator))
            }
            let nested = Filter.and([leaf(), leaf()], negated: Bool.random(using: &generator))
            let tree = [leaf(), nested, leaf()]
            let text = try FilterRendering.logicList(tree)
            #expect(FilterGrammar.logicParts(text) == tree, "\(text)")
        }
    }

    @Test("a top-level condition renders and reads back (random strings)")
    func topLevelRoundTrip() throws {
        var generator = SeededRandom(seed: 99)
        for _ in 0..<1_000 {
            let value = randomString(&generator)
            let filter = condition("c", .eq, .value(value), negated: Bool.random(using: &generator))
            let parameter = try FilterRendering.parameter(for: filter)
            #expect(FilterGrammar.condition(column: parameter.name, expression: parameter.value) == filter)
        }
    }
}
