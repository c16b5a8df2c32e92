/// How the engine treats a write the server answered with an error: refused for good, worth
/// trying again later, or waiting for a new session.
///
/// ``standard(status:code:)`` is the built-in choice; an app that knows better for its own
/// database (a trigger's custom SQLSTATE that means "try later", say) sets
/// ``Configuration/classifyFailure``:
///
/// ```swift
/// configuration.classifyFailure = { status, code in
///     code == "P0001" ? .transient : FailureClass.standard(status: status, code: code)
/// }
/// ```
public enum FailureClass: Sendable, Hashable, CaseIterable {
    /// Refused for good: the write leaves the queue and the lists, and waits in
    /// ``OfflineClient/rejectedMutations()`` for the app to retry or discard it.
    case permanent
    /// Worth trying again: the write stays queued and is sent again on the retry schedule.
    case transient
    /// The session was refused: the write stays queued until a new session (or token) comes.
    case waitForSession

    /// The built-in classes, from the answer's HTTP status and PostgreSQL's or PostgREST's code:
    ///
    /// - wait for a session: status 401, `PGRST301`, `PGRST303` (an expired or invalid JWT);
    /// - transient: `40001` (serialization failure), `40P01` (deadlock), the SQLSTATE classes
    ///   `08` (connection), `53` (insufficient resources) and `57` (operator intervention, a
    ///   statement timeout), and statuses 408, 429 and 5xx;
    /// - permanent: the SQLSTATE classes `22` (data), `23` (constraints) and `42` (syntax and
    ///   privileges, `42501` included), PostgREST's `PGRST1xx` (a request it cannot read), and any
    ///   other 4xx status (a 3xx is a portal's, not PostgREST's: transient).
    ///
    /// A code decides before the status (a 400 carrying `57014`, a cancelled statement, is
    /// transient), except 401, which always waits for a session.
    public static func standard(status: Int, code: String?) -> FailureClass {
        if status == 401 || code == "PGRST301" || code == "PGRST303" { return .waitForSession }
        if let code {
            if code == "40001" || code == "40P01" { return .transient }
            if ["08", "53", "57"].contains(where: code.hasPrefix) { return .transient }
            if ["22", "23", "42"].contains(where: code.hasPrefix) || code.hasPrefix("PGRST1") {
                return .permanent
            }
        }
        if status == 408 || status == 429 || (500..<600).contains(status) { return .transient }
        // A redirect is not PostgREST's answer (a portal's): the write was not refused.
        if (300..<400).contains(status) { return .transient }
        return .permanent
    }
}
