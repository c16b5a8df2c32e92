import OfflineEngine

/// `count` rows keyed `id` 1...count, each with `padding` bytes of text in `body` (starting with
/// `marker`, so a test can look for it in the store's files).
func paddedRows(_ count: Int, padding: Int, marker: String = "row") -> [Row] {
    (1...count).map { id in
        let body = String(
            (marker + "-\(id)-" + String(repeating: "x", count: padding)).prefix(max(padding, 1)))
        return ["id": .number(JSONNumber(id)), "body": .string(body)]
    }
}
