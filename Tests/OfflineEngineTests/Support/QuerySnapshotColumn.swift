@testable import OfflineEngine

extension QuerySnapshot {
    /// The rows' values of one column, as text.
    func column(_ name: String) -> [String] {
        (result?.rows ?? []).map { $0[name]?.rawValue ?? "-" }
    }
}
