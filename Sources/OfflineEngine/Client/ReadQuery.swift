import Foundation

/// A read being built: `client.from("tasks").select().eq("done", value: false).order("id")`.
///
/// A value type: each call returns a new query, so a query can be kept and extended freely.
public struct ReadQuery: FilterBuilding, ChangedCopy {
    /// Everything that defines the read; equal descriptions share one cached list.
    public var query: QueryDescription
    /// The client that runs the read, if it came from one.
    let client: OfflineClient?
    /// What a one-shot read asks beyond the rows (`HEAD`, a count, one row); live reads ignore it.
    package var options = ReadOptions()

    /// A read of `query` not tied to a client (for building and inspecting requests).
    public init(_ query: QueryDescription) {
        self.init(client: nil, query: query)
    }

    init(client: OfflineClient?, query: QueryDescription) {
        self.client = client
        self.query = query
    }

    public func addingFilter(_ filter: Filter) -> ReadQuery {
        changing { $0.query.filters.append(filter) }
    }

    public func addingEmbedParameter(_ parameter: QueryParameter) -> ReadQuery {
        changing { $0.query.embedParameters.append(parameter) }
    }

    /// Sorts by `column`; like supabase-swift it always says where NULLs go (`nullslast` unless
    /// `nullsFirst`). With `referencedTable`, sorts that embedded table's rows instead.
    public func order(
        _ column: String, ascending: Bool = true, nullsFirst: Bool = false, referencedTable: String? = nil
    ) -> ReadQuery {
        let term = OrderTerm(column: column, ascending: ascending, nullsFirst: nullsFirst)
        guard let referencedTable else {
            return changing { $0.query.order.append(term) }
        }
        return settingEmbedParameter(
            referencedTable + ".order", RequestBuilder.orderText([term]), extending: true)
    }

    /// At most `count` rows (of `referencedTable`'s rows, when given).
    public func limit(_ count: Int, referencedTable: String? = nil) -> ReadQuery {
        guard let referencedTable else {
            return changing { $0.query.limit = count }
        }
        return settingEmbedParameter(referencedTable + ".limit", String(count))
    }

    /// Rows `from` through `to`, both counted from 0 and included; sent as `offset` and `limit`
    /// as supabase-swift does.
    public func range(from: Int, to: Int, referencedTable: String? = nil) -> ReadQuery {
        let count = to - from + 1
        guard let referencedTable else {
            return changing {
                $0.query.offset = from
                $0.query.limit = count
            }
        }
        return settingEmbedParameter(referencedTable + ".offset", String(from))
            .settingEmbedParameter(referencedTable + ".limit", String(count))
    }

    /// Exactly one row: `execute().value` decodes that row rather than an array, and a read
    /// that matched none or several throws PostgREST's `PGRST116` refusal (``PostgrestError``,
    /// status 406), from the server's rows or the device's alike.
    ///
    /// ```swift
    /// let task: Task = try await client.from("tasks").select().eq("id", value: id).single().execute().value
    /// ```
    public func single() -> ReadQuery {
        changing { $0.options.shape = .single }
    }

    /// One row or none: `execute().value` decodes an `Optional` (`nil` for no row); several
    /// rows throw `PGRST116`.
    public func maybeSingle() -> ReadQuery {
        changing { $0.options.shape = .maybeSingle }
    }

    /// This read with its embed parameter `name` set to `value`; `extending` keeps the value it
    /// had and adds `value` after a comma (one more order term of that table).
    private func settingEmbedParameter(_ name: String, _ value: String, extending: Bool = false) -> Self {
        changing { read in
            guard let index = read.query.embedParameters.firstIndex(where: { $0.name == name }) else {
                read.query.embedParameters.append(QueryParameter(name: name, value: value))
                return
            }
            let old = read.query.embedParameters[index].value
            read.query.embedParameters[index].value = extending ? old + "," + value : value
        }
    }
}
