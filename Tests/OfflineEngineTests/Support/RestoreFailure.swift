/// The error a test's session restore throws, as an auth client that cannot restore would.
struct RestoreFailure: Error {}
