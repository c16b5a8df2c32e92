@testable import OfflineEngine

extension QuerySnapshot {
    /// The row whose `id` is the number `id`, if the snapshot holds it.
    func row(id: Int) -> Row? {
        result?.rows.first { $0["id"] == .number(JSONNumber(id)) }
    }
}
