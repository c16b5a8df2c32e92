extension Result {
    /// The error of a failure, or `nil` for a success.
    var failureError: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
