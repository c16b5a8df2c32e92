extension PrimaryKeys {
    /// Whether sending a write again cannot apply it twice: an update or delete lands on the
    /// same rows, and an insert or upsert whose every row carries its key meets its own row
    /// (a 409 that the lost-answer check reads, or a merge). A keyless insert would add a row.
    func resendIsSafe(_ mutation: Mutation) -> Bool {
        switch mutation.operation {
        case .update, .delete:
            return true
        case .insert, .upsert:
            let columns = mutation.onConflict ?? self.columns(for: mutation.table)
            return mutation.rows.allSatisfy { row in
                columns.allSatisfy { column in row[column].map { !$0.isNull } ?? false }
            }
        }
    }
}
