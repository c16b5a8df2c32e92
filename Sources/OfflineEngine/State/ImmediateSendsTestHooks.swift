/// What tests read of the writes sent at once (package access; the library never calls it).
extension ImmediateSends {
    /// How many callers wait (tests use it to interleave).
    var waiting: Int { counts.readerCount }
}
