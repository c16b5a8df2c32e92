import OfflineEngine

extension Step {
    /// ``firstFetchRefused``, then the network known down: the retry 300 ms on shows Paused.
    static let pausedInRetryWait: [Step] =
        firstFetchRefused + [.networkDown, .advance(.milliseconds(300)), .see("all", .paused)]

    /// The read's wait cut short: a second fetch, sent at once, shows task 1 up to date.
    static let fetchedAtOnce: [Step] = [.see("all", Shows(ids: [1], refresh: .idle)), .sent(.get(), 2)]
}
