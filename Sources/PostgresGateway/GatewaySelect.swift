import Foundation
import OfflineEngine

/// A `select` read as PostgREST's grammar reads it: columns and `*` as written, and embedded
/// tables (`alias:table!hint!inner(columns)`) with selects of their own, so each level becomes
/// one subquery. What the gateway does not translate (spreads, aggregates) is refused here.
enum GatewaySelect {
    /// One item of a select list.
    enum Item {
        /// `*`, or a column with its rename and cast, as ``GatewaySQL/selectList(_:qualifier:)`` reads it.
        case field(String)
        /// An embedded table.
        case embed(Embed)
    }

    /// `alias:name!hint!inner(items)`.
    struct Embed {
        var alias: String?
        /// The table, foreign key column or constraint the embed names.
        var name: String
        /// `!hint`: a foreign key column or constraint, or a junction table.
        var hint: String?
        /// `!inner`: parent rows without a match are left out.
        var inner: Bool
        var items: [Item]

        /// The key the embed's value has in the parent row.
        var key: String { alias ?? name }

        /// Whether it and every embed under it select nothing (`clients!inner()`): it only filters.
        var isEmpty: Bool {
            items.allSatisfy { item in
                if case .embed(let child) = item { return child.isEmpty }
                return false
            }
        }
    }

    /// The items of `select` (normalised: no whitespace outside quotes).
    static func items(_ select: String) throws(GatewaySQL.Unsupported) -> [Item] {
        var items: [Item] = []
        for piece in QueryDescription.topLevelItems(of: select) where !piece.isEmpty {
            guard let open = piece.firstIndex(of: "("), !piece.hasPrefix("\"") else {
                items.append(.field(piece))
                continue
            }
            let head = String(piece[..<open])
            guard piece.hasSuffix(")") else { throw GatewaySQL.Unsupported(what: "a select it cannot read") }
            if head.hasPrefix("...") { throw GatewaySQL.Unsupported(what: "spread embeds (...)") }
            var alias: String?
            var rest = head
            if let colon = head.firstIndex(of: ":"), head[head.index(after: colon)...].first != ":" {
                alias = String(head[..<colon])
                rest = String(head[head.index(after: colon)...])
            }
            let parts = rest.split(separator: "!", omittingEmptySubsequences: false).map(String.init)
            guard let name = parts.first, !name.isEmpty, name != "count", !name.contains("."),
                !name.contains("::"), parts.count <= 3
            else { throw GatewaySQL.Unsupported(what: "aggregate functions or casts in select") }
            var hint: String?
            var inner = false
            for parameter in parts.dropFirst() {
                switch parameter {
                case "inner": inner = true
                case "left": break
                default: hint = parameter
                }
            }
            let body = String(piece[piece.index(after: open)..<piece.index(before: piece.endIndex)])
            items.append(
                .embed(Embed(alias: alias, name: name, hint: hint, inner: inner, items: try Self.items(body)))
            )
        }
        return items
    }
}
