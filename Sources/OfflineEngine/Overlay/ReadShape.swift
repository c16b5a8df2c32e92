/// The columns a read returns and the options of the tables it embeds: a row read with one
/// shape may join a list of another only when it carries what that list reads.
struct ReadShape: Sendable, Hashable {
    /// What a `select` text asks for, as far as the overlay can tell.
    enum Columns: Sendable, Hashable {
        /// `*`: every column of the table.
        case all
        /// Plain column names, nothing renamed, cast, embedded or read through a JSON path.
        case named(Set<String>)
        /// Aliases (`heading:title`), casts (`::text`), JSON paths (`data->x`), embeds
        /// (`author:profiles(name)`) or spreads: rows carry names the table does not have.
        case complex
    }

    /// The normalised `select` text.
    var select: String
    /// Parameters scoped to embedded tables.
    var embedParameters: [QueryParameter]

    /// The shape of a read.
    init(_ query: QueryDescription) {
        select = query.select
        embedParameters = query.embedParameters
    }

    /// The shape of the rows a write asked back with `select` text.
    init(returning select: String) {
        self.select = QueryDescription.normalizedSelect(select)
        embedParameters = []
    }

    /// What this shape's `select` asks for.
    var columns: Columns { ReadShape.columns(of: select) }

    /// One part of a row a list may take: what it was read with, and the columns it carries.
    struct Part: Sendable, Hashable {
        /// The shape it was read with.
        var shape: ReadShape
        /// The columns it carries.
        var columns: Set<String>
    }

    /// Whether a row read with this shape (carrying `rowColumns`) may join a list read with
    /// `list`: it must carry every column the list reads and nothing else. That is the same
    /// shape, or a plain read whose columns are the list's; a `*` list takes only rows read with
    /// `*`, since no other read is known to carry every column. A list with embed options only
    /// takes rows read with the same ones.
    func mayJoin(_ list: ReadShape, rowColumns: Set<String>) -> Bool {
        ReadShape.mayJoin(list, parts: [Part(shape: self, columns: rowColumns)])
    }

    /// Whether a row made of `parts` (each laid over the ones before it) may join a list read
    /// with `list`: every part carries only columns the list reads, and together they carry every
    /// one of them (for a `*` list: one part was read with `*`, or with the list's own shape).
    static func mayJoin(_ list: ReadShape, parts: [Part]) -> Bool {
        guard !parts.isEmpty,
            parts.allSatisfy({ $0.shape.mayPatch(list, rowColumns: $0.columns) })
        else { return false }
        if parts.contains(where: { $0.shape.covers(list, rowColumns: $0.columns) }) { return true }
        guard case .named(let names) = list.columns else { return false }
        return names.isSubset(of: parts.reduce(into: Set<String>()) { $0.formUnion($1.columns) })
    }

    /// Whether a row read with this shape (carrying `rowColumns`) may be laid over a row `list`
    /// holds: it carries only columns the list reads, under the names the list reads them.
    func mayPatch(_ list: ReadShape, rowColumns: Set<String>) -> Bool {
        if self == list { return true }
        if !list.embedParameters.isEmpty { return false }
        if case .complex = columns { return false }
        switch list.columns {
        case .all:
            return true
        case .named(let names):
            return rowColumns.isSubset(of: names)
        case .complex:
            return false
        }
    }

    /// Whether a row read with this shape (carrying `rowColumns`) carries every column `list`
    /// reads.
    private func covers(_ list: ReadShape, rowColumns: Set<String>) -> Bool {
        if self == list { return true }
        switch list.columns {
        case .all:
            return columns == .all
        case .named(let names):
            return names.isSubset(of: rowColumns)
        case .complex:
            return false
        }
    }

    /// What `select` text asks for.
    static func columns(of select: String) -> Columns {
        var names = Set<String>()
        var sawStar = false
        for item in QueryDescription.topLevelItems(of: select) {
            if item == "*" {
                sawStar = true
            } else if let name = plainName(item) {
                names.insert(name)
            } else {
                return .complex
            }
        }
        return sawStar ? .all : .named(names)
    }

    /// The column name of a plain item (`title` or `"odd name"`), or `nil` for anything else.
    private static func plainName(_ item: String) -> String? {
        if item.count >= 2, item.first == "\"", item.last == "\"" {
            let inner = item.dropFirst().dropLast()
            return inner.contains("\"") ? nil : String(inner)
        }
        guard let first = item.unicodeScalars.first, !item.isEmpty else { return nil }
        let isLetter = { (scalar: Unicode.Scalar) in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
        }
        guard isLetter(first) else { return nil }
        let allPlain = item.unicodeScalars.allSatisfy { scalar in
            isLetter(scalar) || (scalar >= "0" && scalar <= "9")
        }
        return allPlain ? item : nil
    }
}
