// Apple platforms only, and never compiled by this repository's CI (Linux has no SwiftUI): it
// is kept to what ``LiveQueryModel`` already provides.
#if canImport(SwiftUI)
    import SwiftUI

    /// A live read's decoded rows in a SwiftUI view: a ``LiveQueryModel`` kept in the view's
    /// state; `$name` is the model, for its refresh, its marks, its error and `run()`.
    ///
    /// ```swift
    /// struct TasksScreen: View {
    ///     @LiveQuery<Task> var tasks: [Task]
    ///
    ///     init(client: OfflineClient) {
    ///         _tasks = LiveQuery(client.from("tasks").select().order("title"))
    ///     }
    ///
    ///     var body: some View {
    ///         List(tasks) { task in
    ///             Label(task.title, systemImage: $tasks.pendingRowIDs.contains(task.id) ? "icloud.and.arrow.up" : "checkmark")
    ///         }
    ///         .task { await $tasks.run() }
    ///     }
    /// }
    /// ```
    ///
    /// Like any `@State`, the model is made once for the view's identity: a view built again with
    /// another query (a search text) keeps reading the first. Give such a view an identity of
    /// its query, `TasksScreen(client: client, search: text).id(text)`, so a new query gets a
    /// new model.
    @MainActor
    @propertyWrapper
    public struct LiveQuery<Element: Decodable & Sendable>: DynamicProperty {
        @State private var model: LiveQueryModel<[Element]>

        /// The live read `query`, its rows decoded into `[Element]`.
        public init(_ query: ReadQuery) {
            _model = State(wrappedValue: LiveQueryModel(query, as: Element.self))
        }

        /// The rows (``LiveQueryModel/rows``).
        public var wrappedValue: [Element] { model.rows }

        /// The model.
        public var projectedValue: LiveQueryModel<[Element]> { model }
    }
#endif
