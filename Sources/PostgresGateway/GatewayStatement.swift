import Foundation
import OfflineEngine

/// One request as one SQL statement whose single result row holds the answer: the rows as a
/// JSON array, their count, the total (for a read counting), the first row as an object, and
/// how many rows an upsert updated rather than inserted.
///
/// A write returns only what the request asks for, as PostgREST does: `RETURNING 1` for
/// `return=minimal`, the primary key for `return=headers-only`, the selected columns otherwise.
/// A table that lets a role insert but not read (no read policy, or column grants) accepts a
/// minimal insert here as it does on PostgREST.
struct GatewayStatement {
    private(set) var sql = ""
    private var builder = GatewaySQL(qualifier: Self.row)
    private let request: GatewayRequest
    /// The table's columns and key; read for writes only.
    private let table: GatewayTable?
    /// The request's table and the tables it embeds; `nil` when it embeds none.
    private var embed: GatewayEmbed?

    var parameters: [String?] { builder.parameters }

    /// The alias of the request's table in every statement.
    private static let row = "_r"

    /// What an upsert's answer needs: whether the request was one, so its status can say
    /// whether any row was inserted.
    private(set) var isMergeUpsert = false
    /// Whether the request's resolution applied (an insert with a conflict target).
    private(set) var resolutionApplied = false

    init(_ request: GatewayRequest, table: GatewayTable?, relations: GatewayRelationSearch?) throws {
        self.request = request
        self.table = table
        if let relations {
            var counter = 0
            var level = try GatewayEmbed(
                table: request.query.table, alias: Self.row,
                items: try GatewaySelect.items(request.query.select),
                search: relations, counter: &counter)
            for parameter in request.query.embedParameters { try level.assign(parameter) }
            embed = level
        }
        let name = GatewaySQL.table(request.query.table, schema: request.query.schema)
        switch request.method {
        case .get, .head: try read(name)
        case .post: try insert(into: name)
        case .patch: try update(name)
        case .delete:
            let condition = try builder.whereClause(request.query.filters)
            sql = try written("DELETE FROM \(name) AS \(Self.row) WHERE \(condition)")
        }
    }

    // MARK: Statements

    private mutating func read(_ table: String) throws {
        let projection: String
        var joins = ""
        if let embed {
            projection = try embed.projection()
            joins = try embed.joins(&builder, schema: schema)
            builder.embedAliases = embed.embedAliases
        } else {
            projection = try GatewaySQL.selectList(request.query.select, qualifier: Self.row)
        }
        let condition = try builder.whereClause(request.query.filters)
        let source = "FROM \(table) AS \(Self.row)\(joins) WHERE \(condition)"
        var inner = "SELECT \(projection) \(source)"
        inner += try GatewaySQL.orderClause(request.query.order, qualifier: Self.row)
        inner += request.range.sql
        // With embeds, the total counts the rows their joins and filters keep (`!inner`).
        let total =
            request.prefer.count == nil
            ? "NULL"
            : embed?.hasEmbeds == true
                ? "(SELECT count(*) FROM (SELECT 1 \(source)) _c)::text"
                : "(SELECT count(*) FROM \(table) AS \(Self.row) WHERE \(condition))::text"
        sql =
            "SELECT coalesce(json_agg(_t), '[]')::text, count(*)::text, \(total), (json_agg(_t)->0)::text, "
            + "NULL FROM (\(inner)) _t"
    }

    private var schema: String { request.query.schema ?? "public" }

    private mutating func insert(into name: String) throws {
        let rows = try GatewayBody.objects(request.body)
        let keys: [String]
        if let columns = request.columns {
            try table?.check(columns: columns)
            keys = columns
        } else {
            keys = rows.first.map { $0.keys.sorted() } ?? []
            guard rows.allSatisfy({ Set($0.keys) == Set(keys) }) else {
                throw GatewayRefusal(status: 400, code: "PGRST102", message: "All object keys must match")
            }
            try table?.check(columns: keys)
        }
        guard !keys.isEmpty else {
            // `{}` or `[{}, {}]`: rows of defaults; `[]`: nothing (a merge that inserted nothing).
            isMergeUpsert = request.prefer.resolution == .merge
            sql = try written(
                "INSERT INTO \(name) AS \(Self.row) SELECT FROM generate_series(1, \(rows.count))")
            return
        }
        let missing = request.prefer.missingDefault ? "DEFAULT" : "NULL"
        var tuples: [String] = []
        for row in rows {
            var cells: [String] = []
            for key in keys { cells.append(row[key].map { bind($0, column: key) } ?? missing) }
            tuples.append("(" + cells.joined(separator: ", ") + ")")
        }
        var quoted: [String] = []
        for key in keys { quoted.append(try GatewaySQL.column(key)) }
        var statement = "INSERT INTO \(name) AS \(Self.row) (\(quoted.joined(separator: ", "))) VALUES "
        statement += tuples.joined(separator: ", ")
        if let resolution = request.prefer.resolution,
            let target = request.onConflict ?? table.flatMap({ $0.primaryKey.isEmpty ? nil : $0.primaryKey })
        {
            // A table without a primary key and no `on_conflict`: a plain insert, as on PostgREST.
            resolutionApplied = true
            let conflict = target.map(GatewaySQL.identifier).joined(separator: ", ")
            if resolution == .ignore {
                statement += " ON CONFLICT (\(conflict)) DO NOTHING"
            } else {
                isMergeUpsert = true
                let sets = keys.map(GatewaySQL.identifier).map { "\($0) = EXCLUDED.\($0)" }
                statement +=
                    " ON CONFLICT (\(conflict)) DO UPDATE SET " + sets.joined(separator: ", ")
                    + " WHERE set_config('pgrst.updated', (coalesce(nullif(current_setting("
                    + "'pgrst.updated', true), '')::int, 0) + 1)::text, true) <> '-1'"
            }
        }
        sql = try written(statement)
    }

    private mutating func update(_ name: String) throws {
        var patch = try GatewayBody.patch(request.body)
        if let columns = request.columns {
            try table?.check(columns: columns)
            patch = patch.filter { columns.contains($0.key) }
            for column in columns where patch[column] == nil {
                patch[column] = request.prefer.missingDefault ? nil : .null
            }
        } else {
            try table?.check(columns: patch.keys.sorted())
        }
        var assignments: [String] = []
        for (key, value) in patch.sorted(by: { $0.key < $1.key }) {
            assignments.append("\(try GatewaySQL.column(key)) = \(bind(value, column: key))")
        }
        if let columns = request.columns, request.prefer.missingDefault {
            for column in columns.sorted() where patch[column] == nil {
                assignments.append("\(try GatewaySQL.column(column)) = DEFAULT")
            }
        }
        guard !assignments.isEmpty else {
            // An empty body changes nothing and answers as a write that reached no row.
            sql = "SELECT '[]', '0', NULL, NULL, NULL"
            return
        }
        let condition = try builder.whereClause(request.query.filters)
        sql = try written(
            "UPDATE \(name) AS \(Self.row) SET \(assignments.joined(separator: ", ")) WHERE \(condition)")
    }

    /// A write returning what the answer needs, its rows as JSON; with embeds, the rows written
    /// are joined to them after the write, as on PostgREST (embeds read the rows as they were
    /// before the statement).
    private mutating func written(_ write: String) throws -> String {
        let returning: String
        var rows = "_w _t"
        if request.prefer.representation == .full, let embed, embed.hasEmbeds {
            returning = try embed.returning()
            let joins = try embed.joins(&builder, schema: schema)
            rows = "(SELECT \(try embed.projection()) FROM _w AS \(Self.row)\(joins)) _t"
        } else if request.prefer.representation == .full {
            returning = try GatewaySQL.selectList(request.query.select, qualifier: Self.row)
        } else if request.prefer.representation == .headersOnly, let key = table?.primaryKey, !key.isEmpty {
            returning = key.map { Self.row + "." + GatewaySQL.identifier($0) }.joined(separator: ", ")
        } else {
            returning = "1"
        }
        return "WITH _w AS (\(write) RETURNING \(returning)) "
            + "SELECT coalesce(json_agg(_t), '[]')::text, count(*)::text, NULL, (json_agg(_t)->0)::text, "
            + "nullif(current_setting('pgrst.updated', true), '') FROM \(rows)"
    }

    /// Binds a body value for `column`: a JSON array becomes an array literal for an array
    /// column, as PostgREST's `json_populate_recordset` reads it.
    private mutating func bind(_ value: JSONValue, column: String) -> String {
        if case .array(let items) = value, table?.arrayColumns.contains(column) == true {
            return builder.bind(GatewayBody.arrayLiteral(items))
        }
        return builder.bind(GatewayBody.text(of: value))
    }
}
