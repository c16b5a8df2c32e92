import Foundation
import OfflineEngine

/// A relationship PostgREST's schema cache finds between two tables of a schema, from a foreign
/// key: many-to-one from the table holding the key, one-to-many back (one-to-one both ways when
/// the key's columns are unique), and many-to-many through a junction table whose primary key
/// holds the columns of two foreign keys.
struct GatewayRelation {
    /// How many rows of `foreign` one row of `table` reaches.
    enum Cardinality {
        case oneToMany, manyToOne
        /// `isParent`: the side the key points at.
        case oneToOne(isParent: Bool)
        case manyToMany(Junction)
    }

    /// The table between the two ends of a many-to-many relationship.
    struct Junction {
        let table: String
        /// The foreign key to `table`'s side and to `foreign`'s side.
        let constraint1: String
        let constraint2: String
        /// `(column of the end, column of the junction)` pairs, for each end.
        let sourceColumns: [(String, String)]
        let targetColumns: [(String, String)]
    }

    let table: String
    let foreign: String
    let cardinality: Cardinality
    /// The foreign key's name (the junction's name for many-to-many).
    let constraint: String
    /// `(column of table, column of foreign)` pairs; empty for many-to-many.
    let columns: [(String, String)]

    var isSelf: Bool { table == foreign }

    /// Whether one row of `table` reaches at most one row of `foreign`: embedded as an object.
    var isToOne: Bool {
        switch cardinality {
        case .manyToOne, .oneToOne: return true
        case .oneToMany, .manyToMany: return false
        }
    }

    /// The single column of `table` (`first`) or of `foreign` the key uses, if it has one.
    func singleColumn(first: Bool) -> String? {
        columns.count == 1 ? (first ? columns[0].0 : columns[0].1) : nil
    }

    /// Every relationship of `schema` whose tables (and junction) are in it, read from the
    /// catalog in the request's transaction, in the order PostgREST's schema cache sorts them.
    static func all(
        schema: String, execute: (String, [String?]) throws(PostgresError) -> [[String?]]
    ) throws(PostgresError) -> [GatewayRelation] {
        let rows = try execute(
            """
            SELECT tab.relname, other.relname, c.conname,
              to_json(ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o))::text,
              to_json(ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, o)
                JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o))::text,
              EXISTS (SELECT 1 FROM pg_constraint u WHERE u.conrelid = c.conrelid AND u.contype IN ('p', 'u')
                AND (SELECT array_agg(x ORDER BY x) FROM unnest(u.conkey) x)
                  = (SELECT array_agg(x ORDER BY x) FROM unnest(c.conkey) x)),
              to_json(ARRAY(SELECT a.attname FROM pg_index i JOIN pg_attribute a
                ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                WHERE i.indrelid = c.conrelid AND i.indisprimary))::text
            FROM pg_constraint c
            JOIN pg_class tab ON tab.oid = c.conrelid
            JOIN pg_class other ON other.oid = c.confrelid
            WHERE c.contype = 'f' AND c.conparentid = 0
              AND tab.relnamespace = $1::regnamespace AND other.relnamespace = $1::regnamespace
            ORDER BY c.conrelid, c.conname
            """, [GatewaySQL.identifier(schema)])
        var keys: [Key] = []
        for row in rows {
            guard row.count == 7, let table = row[0], let foreign = row[1], let name = row[2] else {
                continue
            }
            let columns = Array(zip(names(row[3]), names(row[4])))
            keys.append(
                Key(
                    table: table, foreign: foreign, name: name, columns: columns, unique: row[5] == "t",
                    primaryKey: Set(names(row[6]))))
        }
        var relations: [GatewayRelation] = []
        for key in keys {
            let swapped = key.columns.map { ($0.1, $0.0) }
            relations.append(
                GatewayRelation(
                    table: key.table, foreign: key.foreign,
                    cardinality: key.unique ? .oneToOne(isParent: false) : .manyToOne, constraint: key.name,
                    columns: key.columns))
            relations.append(
                GatewayRelation(
                    table: key.foreign, foreign: key.table,
                    cardinality: key.unique ? .oneToOne(isParent: true) : .oneToMany, constraint: key.name,
                    columns: swapped))
        }
        // A junction: two distinct many-to-one keys of one table whose columns its primary key holds.
        for first in keys where !first.unique {
            for second in keys
            where !second.unique && second.table == first.table && second.name != first.name {
                let used = Set(first.columns.map(\.0) + second.columns.map(\.0))
                guard used.isSubset(of: first.primaryKey) else { continue }
                let junction = Junction(
                    table: first.table, constraint1: first.name, constraint2: second.name,
                    sourceColumns: first.columns.map { ($0.1, $0.0) },
                    targetColumns: second.columns.map { ($0.1, $0.0) })
                relations.append(
                    GatewayRelation(
                        table: first.foreign, foreign: second.foreign, cardinality: .manyToMany(junction),
                        constraint: first.table, columns: []))
            }
        }
        return relations.sorted { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
    }

    /// A foreign key as the catalog holds it.
    private struct Key {
        let table: String
        let foreign: String
        let name: String
        let columns: [(String, String)]
        /// Whether its columns are exactly a primary key or unique constraint: one-to-one.
        let unique: Bool
        let primaryKey: Set<String>
    }

    private static func names(_ json: String?) -> [String] {
        guard let json, case .array(let items)? = try? JSONText.parse(json) else { return [] }
        return items.compactMap(\.stringValue)
    }

    /// The order of PostgREST's derived `Ord` on relationships (tables, self, cardinality in
    /// declaration order `O2M`, `M2O`, `O2O`, `M2M`, then the key), which orders its 300's details.
    private var sortKey: [String] {
        var key = [table, foreign, isSelf ? "1" : "0"]
        let pairs = columns.flatMap { [$0.0, $0.1] }
        switch cardinality {
        case .oneToMany: key += ["0", constraint] + pairs
        case .manyToOne: key += ["1", constraint] + pairs
        case .oneToOne(let isParent): key += ["2", constraint] + pairs + [isParent ? "1" : "0"]
        case .manyToMany(let junction):
            key += ["3", junction.table, junction.constraint1, junction.constraint2]
            key +=
                junction.sourceColumns.flatMap { [$0.0, $0.1] }
                + junction.targetColumns.flatMap { [$0.0, $0.1] }
        }
        return key
    }
}
