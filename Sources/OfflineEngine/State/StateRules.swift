/// What the configuration fixes for ``EngineState``'s decisions: how rows are keyed, whose cache
/// is shown, and which empty answers are trusted.
struct StateRules: Sendable {
    let primaryKeys: PrimaryKeys
    /// Whether each user has a cache of their own, or one is handed over.
    let sharing: CacheSharing
    let responseTrust: ResponseTrust

}
