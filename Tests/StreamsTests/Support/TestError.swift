/// The error the scripted test sequences throw.
struct TestError: Error, Equatable {
    var code = 1
}
