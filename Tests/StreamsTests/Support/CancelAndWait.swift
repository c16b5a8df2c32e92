/// Cancels every task, then returns once all of them have ended.
func cancelAndWait(_ tasks: [Task<Void, Never>]) async {
    for task in tasks {
        task.cancel()
    }
    for task in tasks {
        await task.value
    }
}
