/// Whose writes a step of the store or the state touches: everyone's, or one owner's (`nil`: the
/// writes made while nobody was signed in).
package enum WriteOwners: Sendable, Hashable {
    /// Every owner's writes.
    case everyone
    /// The writes of one owner.
    case only(String?)

    /// Whether a write of `owner` is among them.
    package func include(_ owner: String?) -> Bool {
        switch self {
        case .everyone: true
        case .only(let one): one == owner
        }
    }
}
