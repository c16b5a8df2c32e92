/// A failure a test scripts, told apart by its name.
struct TestFailure: Error, Hashable {
    var name: String
}
