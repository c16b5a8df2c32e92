import Foundation
import OfflineEngine

/// One level of a read and the tables it embeds, as PostgREST's read plan: each embed is a
/// lateral subquery joined to its parent row by the relationship's columns, an object
/// (`row_to_json`, `null` when no row) for a to-one relationship and an array (`[]` when none)
/// otherwise, with its own filters, order and range from the parameters scoped to it
/// (`tasks.order=name.asc`). `!inner` drops the parent rows it leaves empty.
struct GatewayEmbed {
    /// An embedded table under this level.
    struct Child {
        let embed: GatewaySelect.Embed
        let relation: GatewayRelation
        var level: GatewayEmbed
    }

    let table: String
    /// The table's alias in the statement (`_r` for the request's table).
    let alias: String
    /// The plain items of the select (`*`, columns).
    private(set) var fields: [String] = []
    private(set) var children: [Child] = []
    /// The parameters scoped to this level, without their path (`order`, `name`, `or`).
    private var parameters: [QueryParameter] = []

    /// The level of `table` selecting `items`, its embeds' relationships found by `search`;
    /// `counter` numbers the aliases.
    init(
        table: String, alias: String, items: [GatewaySelect.Item], search: GatewayRelationSearch,
        counter: inout Int
    ) throws {
        self.table = table
        self.alias = alias
        for item in items {
            switch item {
            case .field(let text): fields.append(text)
            case .embed(let embed):
                let relation = try search.find(origin: table, target: embed.name, hint: embed.hint)
                counter += 1
                let level = try GatewayEmbed(
                    table: relation.foreign, alias: "_e\(counter)", items: embed.items, search: search,
                    counter: &counter)
                children.append(Child(embed: embed, relation: relation, level: level))
            }
        }
    }

    /// Whether the level embeds anything.
    var hasEmbeds: Bool { !children.isEmpty }

    /// Gives `parameter` (`tasks.users.order`) to the embed its path names: an alias, or the
    /// table's name even when aliased (PostgREST's default, legacy target names). A path naming
    /// no embed is PostgREST's 400 `PGRST108`.
    mutating func assign(_ parameter: QueryParameter) throws {
        var path = parameter.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var key = path.removeLast()
        if key == "or" || key == "and", path.last == "not" {
            path.removeLast()
            key = "not." + key
        }
        try assign(QueryParameter(name: key, value: parameter.value), path: path[...])
    }

    private mutating func assign(_ parameter: QueryParameter, path: ArraySlice<String>) throws {
        guard let name = path.first else {
            if parameter.name == "order" { try GatewayRequest.checkOrder(parameter.value) }
            parameters.append(parameter)
            return
        }
        guard let index = children.firstIndex(where: { $0.embed.name == name || $0.embed.alias == name })
        else {
            throw GatewayRefusal(
                status: 400, code: "PGRST108",
                message: "'\(name)' is not an embedded resource in this request",
                hint: "Verify that '\(name)' is included in the 'select' query parameter.")
        }
        try children[index].level.assign(parameter, path: path.dropFirst())
    }

    /// The select list: the fields, then each embed's value under its key.
    func projection() throws -> String {
        var items: [String] = []
        for field in fields { items.append(try GatewaySQL.selectList(field, qualifier: alias)) }
        if fields.isEmpty && children.isEmpty { items.append(alias + ".*") }
        for child in children where !child.embed.isEmpty {
            let name = child.level.alias
            items.append(
                child.relation.isToOne
                    ? "row_to_json(\(name).*)::jsonb AS \(GatewaySQL.identifier(child.embed.key))"
                    : "COALESCE(\(name).\(name), '[]') AS \(GatewaySQL.identifier(child.embed.key))")
        }
        return items.joined(separator: ", ")
    }

    /// The embeds' joins, after this level's `FROM`; binds their filters' values in `builder`.
    func joins(_ builder: inout GatewaySQL, schema: String) throws -> String {
        var text = ""
        for child in children {
            let name = child.level.alias
            let join = child.embed.inner ? " INNER JOIN LATERAL (" : " LEFT JOIN LATERAL ("
            let subquery = try child.level.subquery(parent: alias, child.relation, &builder, schema: schema)
            if child.relation.isToOne {
                text += join + subquery + ") AS \(name) ON TRUE"
            } else {
                text +=
                    join
                    + "SELECT json_agg(\(name))::jsonb AS \(name) FROM (\(subquery)) AS \(name)) AS \(name) ON "
                    + (child.embed.inner ? "\(name) IS NOT NULL" : "TRUE")
            }
        }
        return text
    }

    /// The aliases of the embeds by key, for a filter `key=is.null` on an embed.
    var embedAliases: [String: String] {
        Dictionary(children.map { ($0.embed.key, $0.level.alias) }, uniquingKeysWith: { first, _ in first })
    }

    /// The columns of the request's table a write returns for the answer to read its embeds
    /// from: the selected columns and the ones the relationships join on.
    func returning() throws -> String {
        var columns: [String] = []
        for field in fields {
            if field == "*" { return alias + ".*" }
            var name = field.components(separatedBy: "::")[0]
            if let colon = name.firstIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
            columns.append(name)
        }
        for child in children {
            if case .manyToMany(let junction) = child.relation.cardinality {
                columns += junction.sourceColumns.map(\.0)
            } else {
                columns += child.relation.columns.map(\.0)
            }
        }
        var seen = Set<String>()
        var references: [String] = []
        for column in columns where seen.insert(column).inserted {
            references.append(try GatewaySQL.reference(column, qualifier: alias))
        }
        return references.isEmpty ? "1" : references.joined(separator: ", ")
    }

    /// This level as the subquery of an embed under the row `parent`, joined by `relation`.
    private func subquery(
        parent: String, _ relation: GatewayRelation, _ builder: inout GatewaySQL, schema: String
    ) throws -> String {
        guard let query = try? QueryDescription(schema: schema, table: table, parameters: parameters) else {
            throw GatewayRefusal(status: 400, code: "PGRST100", message: "Failed to parse the query")
        }
        let source = GatewaySQL.table(table, schema: schema) + " AS " + alias
        var from = source
        var conditions: [String] = []
        if case .manyToMany(let junction) = relation.cardinality {
            let middle = alias + "_j"
            from += ", " + GatewaySQL.table(junction.table, schema: schema) + " AS " + middle
            for (column, own) in junction.targetColumns {
                conditions.append(
                    "\(alias).\(GatewaySQL.identifier(column)) = \(middle).\(GatewaySQL.identifier(own))")
            }
            for (column, own) in junction.sourceColumns {
                conditions.append(
                    "\(middle).\(GatewaySQL.identifier(own)) = \(parent).\(GatewaySQL.identifier(column))")
            }
        } else {
            for (column, own) in relation.columns {
                conditions.append(
                    "\(alias).\(GatewaySQL.identifier(own)) = \(parent).\(GatewaySQL.identifier(column))")
            }
        }
        let joined = try joins(&builder, schema: schema)
        let saved = (builder.qualifier, builder.embedAliases)
        builder.qualifier = alias
        builder.embedAliases = embedAliases
        defer { (builder.qualifier, builder.embedAliases) = saved }
        if !query.filters.isEmpty { conditions.append(try builder.whereClause(query.filters)) }
        var text =
            "SELECT \(try projection()) FROM \(from)\(joined) WHERE \(conditions.joined(separator: " AND "))"
        text += try GatewaySQL.orderClause(query.order, qualifier: alias)
        if let limit = query.limit { text += " LIMIT \(max(limit, 0))" }
        if let offset = query.offset, offset > 0 { text += " OFFSET \(offset)" }
        return text
    }
}
