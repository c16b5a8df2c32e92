import Foundation
import OfflineEngine

/// Finds the one relationship an embed names, as PostgREST's `findRel` does: by the target
/// table, a foreign key's constraint or single column, and with `!hint` by a constraint, a
/// column of either side or a junction table. None is its 400 `PGRST200`, several its 300
/// `PGRST201` listing them, so a request is never answered through a relationship it did not mean.
struct GatewayRelationSearch {
    let schema: String
    let relations: [GatewayRelation]
    /// Views and functions of the schema: PostgREST also embeds through these, the gateway does not.
    let opaque: Set<String>

    /// Reads the relationships of `schema` from the catalog, in the request's transaction.
    init(schema: String, execute: (String, [String?]) throws(PostgresError) -> [[String?]])
        throws(PostgresError)
    {
        self.schema = schema
        relations = try GatewayRelation.all(schema: schema, execute: execute)
        let names = try execute(
            """
            SELECT c.relname::text FROM pg_class c
            WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('v', 'm', 'f')
            UNION SELECT p.proname::text FROM pg_proc p WHERE p.pronamespace = $1::regnamespace AND p.pronargs = 1
            """, [GatewaySQL.identifier(schema)])
        opaque = Set(names.compactMap { $0.first ?? nil })
    }

    /// The relationship from `origin` that `target` (with `hint`) names.
    func find(origin: String, target: String, hint: String?) throws -> GatewayRelation {
        let found = relations.filter { $0.table == origin && Self.matches($0, target: target, hint: hint) }
        if found.count == 1 { return found[0] }
        if found.isEmpty {
            if opaque.contains(origin) || opaque.contains(target) {
                throw GatewaySQL.Unsupported(what: "embedding through views or functions (\(target))")
            }
            throw GatewayRefusal(
                status: 400, code: "PGRST200",
                message:
                    "Could not find a relationship between '\(origin)' and '\(target)' in the schema cache",
                details: "Searched for a foreign key relationship between '\(origin)' and '\(target)"
                    + (hint.map { "' using the hint '\($0)" } ?? "")
                    + "' in the schema '\(schema)', but no matches were found.")
        }
        let choices = found.map { "'\($0.foreign)!\($0.constraint)'" }.joined(separator: ", ")
        var refusal = GatewayRefusal(
            status: 300, code: "PGRST201",
            message:
                "Could not embed because more than one relationship was found for '\(origin)' and '\(target)'",
            hint: "Try changing '\(target)' to one of the following: \(choices). "
                + "Find the desired relationship in the 'details' key.")
        refusal.detailsJSON = .array(found.map(Self.described))
        throw refusal
    }

    private static func matches(_ relation: GatewayRelation, target: String, hint: String?) -> Bool {
        let isOneToMany: Bool
        let isManyToOne: Bool
        switch relation.cardinality {
        case .oneToMany: (isOneToMany, isManyToOne) = (true, false)
        case .manyToOne: (isOneToMany, isManyToOne) = (false, true)
        default: (isOneToMany, isManyToOne) = (false, false)
        }
        let isKey: Bool
        if case .manyToMany = relation.cardinality { isKey = false } else { isKey = true }
        if relation.isSelf {
            // One key, two relationships: the table name reaches the children, the column the parent.
            guard let hint else {
                return (target == relation.foreign && isOneToMany)
                    || (relation.singleColumn(first: true) == target && isManyToOne)
            }
            return target == relation.foreign && isOneToMany && relation.singleColumn(first: false) == hint
        }
        guard let hint else {
            return target == relation.foreign || (isKey && target == relation.constraint)
                || relation.singleColumn(first: true) == target
        }
        guard target == relation.foreign else { return false }
        if case .manyToMany(let junction) = relation.cardinality { return hint == junction.table }
        return hint == relation.constraint || relation.singleColumn(first: true) == hint
            || relation.singleColumn(first: false) == hint
    }

    /// One entry of the 300's `details`, in PostgREST's words.
    private static func described(_ relation: GatewayRelation) -> JSONValue {
        func list(_ columns: [String]) -> String { "(" + columns.joined(separator: ", ") + ")" }
        let cardinality: String
        let text: String
        switch relation.cardinality {
        case .manyToMany(let junction):
            cardinality = "many-to-many"
            text =
                "\(junction.table) using \(junction.constraint1)\(list(junction.sourceColumns.map(\.1)))"
                + " and \(junction.constraint2)\(list(junction.targetColumns.map(\.1)))"
        case .oneToMany, .manyToOne, .oneToOne:
            if case .oneToMany = relation.cardinality {
                cardinality = "one-to-many"
            } else if case .manyToOne = relation.cardinality {
                cardinality = "many-to-one"
            } else {
                cardinality = "one-to-one"
            }
            text =
                "\(relation.constraint) using \(relation.table)\(list(relation.columns.map(\.0)))"
                + " and \(relation.foreign)\(list(relation.columns.map(\.1)))"
        }
        return .object([
            "cardinality": .string(cardinality),
            "embedding": .string("\(relation.table) with \(relation.foreign)"),
            "relationship": .string(text),
        ])
    }
}
