import OfflineEngine

/// A task table the sample printed, and the snapshot of the live read it was printed from, so a
/// test can check each printed row and mark against it.
public struct PrintedBoard: Sendable {
    /// The lines printed: the Sync line, the header, then one line per task.
    public var lines: [String]
    /// The snapshot the table's model showed.
    public var snapshot: QuerySnapshot
}
