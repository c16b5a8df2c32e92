extension Row {
    /// This written row without the `shownOnly` columns (values made on the device and never sent)
    /// that `existing` already holds: merged over a row the server has, such a value would cover
    /// the row's own, which the write leaves as it is.
    func keepingMade(_ shownOnly: Set<String>, of existing: Row) -> Row {
        guard !shownOnly.isEmpty else { return self }
        var kept = values
        for column in shownOnly where existing[column] != nil { kept[column] = nil }
        return Row(kept)
    }
}
