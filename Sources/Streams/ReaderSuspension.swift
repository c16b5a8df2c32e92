/// Suspends a reader of a holder (``StateBroadcast``, ``EventBroadcast``) until its next element
/// or the end: `poll` runs with the reader's continuation and either returns what is ready now
/// (resumed at once) or `nil`, having stored the continuation for the holder to resume later.
/// Cancelling the waiting task calls `unregister`, which resumes a stored continuation.
///
/// One suspension for every holder, so the order of "store the continuation under the lock,
/// or resume now" and "cancellation unregisters" is written once.
@inlinable
func suspendReader<Element, Failure: Error>(
    unregister: @Sendable () -> Void,
    poll: (UnsafeContinuation<Result<Element, Failure>, Never>) -> Result<Element, Failure>?
) async -> Result<Element, Failure> {
    await withTaskCancellationHandler {
        await withUnsafeContinuation { continuation in
            if let ready = poll(continuation) { continuation.resume(returning: ready) }
        }
    } onCancel: {
        unregister()
    }
}
