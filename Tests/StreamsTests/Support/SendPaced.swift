/// Sends `values` one by one, yielding after every `batch` so readers keep up as they would.
func sendPaced(_ values: some Sequence<Int>, batch: Int, send: (Int) -> Void) async {
    for value in values {
        send(value)
        if value % batch == 0 {
            await Task.yield()
        }
    }
}
