/// What each column type that could have produced a JSON value says about one comparison.
///
/// The engine does not know a column's type, so it asks every type that renders the value the
/// same way. A type whose input function rejects the filter's text makes the server reject the
/// whole request, so it does not vote. The answer stands only when every type that votes agrees.
struct Votes {
    private var sawTrue = false
    private var sawFalse = false
    private var sawUndecided = false

    /// One type's answer: TRUE or FALSE.
    mutating func add(_ answer: Bool) {
        if answer { sawTrue = true } else { sawFalse = true }
    }

    /// A type whose answer the engine cannot work out.
    mutating func addUndecided() { sawUndecided = true }

    /// The agreed answer, or can't tell when the votes differ or no type voted.
    var verdict: Verdict {
        if sawUndecided || sawTrue == sawFalse { return .undecided }
        return sawTrue ? .true : .false
    }
}
