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

    /// Whether a row read with this shape (carrying `rowColumns`) may join a list read with
    /// `list`: the same shape, or a plain read whose columns are what the list reads (any plain
    /// row for a `*` list). A list with embed options only takes rows read with the same ones.
    func mayJoin(_ list: ReadShape, rowColumns: Set<String>) -> Bool {
        if self == list { return true }
        if !list.embedParameters.isEmpty { return false }
        if case .complex = columns { return false }
        switch list.columns {
        case .all:
            return true
        case .named(let names):
            return names == rowColumns
        case .complex:
            return false
        }
    }

    /// What `select` text asks for.
    static func columns(of select: String) -> Columns {
        var names = Set<String>()
        var sawStar = false
        for item in topLevelItems(of: select) {
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

    /// The comma-separated items of `select`, outside parentheses and quotes.
    private static func topLevelItems(of select: String) -> [String] {
        var items = [String]()
        var current = ""
        var depth = 0
        var quoted = false
        for character in select {
            if character == "\"" { quoted.toggle() }
            if !quoted {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if character == "," && depth == 0 {
                    items.append(current)
                    current = ""
                    continue
                }
            }
            current.append(character)
        }
        items.append(current)
        return items
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
