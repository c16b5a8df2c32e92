extension Step {
    /// With the next fetch held, `step` makes the read of all tasks show Refreshing; once the
    /// fetch is let go the read shows `shows`.
    static func refreshing(after step: Step, then shows: Shows) -> [Step] {
        [.answer(.get(), .hang), step, .see("all", .refreshing), .release, .see("all", shows)]
    }
}
