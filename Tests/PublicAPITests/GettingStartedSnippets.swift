import Foundation
import OfflineEngine

// The catalog's Getting Started snippets (Sources/OfflineEngine/OfflineEngine.docc), one function
// each, with the placeholders they name as parameters. Changes are marked "adapted".

/// "Open a client" (compiled only: it names a real URL). Adapted: a synchronous function, as a
/// global's or an `init`'s context is.
func gettingStartedOpen(anonKey: String, appSupportURL: URL) -> OfflineClient {
    let client = OfflineClient(
        configuration: Configuration(
            url: URL(string: "https://abc.supabase.co")!,
            apiKey: anonKey,
            storage: .directory(appSupportURL)
        ))
    return client
}

/// Asking whether the store opened.
func gettingStartedAsk(_ client: OfflineClient) async throws {
    do {
        try await client.open()
    } catch let error as StoreError {
        showStoreProblem(error)  // Storage.reset() starts over, if the user agrees
    }
}

/// Opening the store before returning, in an `async` function.
func gettingStartedOpenAsync(anonKey: String, appSupportURL: URL) async throws -> OfflineClient {
    try await OfflineClient(
        configuration: Configuration(
            url: URL(string: "https://abc.supabase.co")!, apiKey: anonKey, storage: .directory(appSupportURL))
    )
}

/// Handing the client the user's session, and taking it back.
func gettingStartedSession(_ client: OfflineClient, token: String, userID: String) async throws {
    try await client.signIn(AuthSession(accessToken: token, userID: userID))
    try await client.signOut()
}

/// Letting the client await the auth client's own restored session (compiled only).
func gettingStartedRestore(
    projectURL: URL, anonKey: String, appSupportURL: URL, authClient: AuthClient
) async throws -> OfflineClient {
    var configuration = Configuration(url: projectURL, apiKey: anonKey, storage: .directory(appSupportURL))
    configuration.restoreSession = {
        guard let restored = try await authClient.restoreStoredSession() else { return nil }
        return AuthSession(accessToken: restored.accessToken, userID: restored.userID)
    }
    let client = try await OfflineClient(configuration: configuration)
    return client
}

/// "Read a live list", until the list is up to date.
func gettingStartedLiveRead(_ client: OfflineClient) async throws {
    for try await snapshot in client.from("tasks").select("id,title,done")
        .eq("done", value: false).snapshots()
    {
        let tasks = try snapshot.result?.decode([Task].self) ?? []
        show(tasks, offline: snapshot.refresh == .paused)
        if snapshot.refresh == .idle { return }  // adapted: the loop ends
    }
}

/// Reading once.
func gettingStartedFetch(_ client: OfflineClient) async throws -> [Task] {
    let once = try await client.from("tasks").select().fetch()
    let tasks = try once.decode([Task].self)
    if once.hasPendingMutations { print("some of these rows are waiting to sync") }
    if once.isFromCache { print("the server did not answer: these are the device's rows") }
    return tasks  // adapted
}

/// "Write, online or not".
func gettingStartedWrite(_ client: OfflineClient, task: Task) async throws -> WriteResponse<Void> {
    let result = try await client.from("tasks").insert(task).execute()
    if case .queued(let pending) = result.outcome {
        print("saved on the device; \(pending.rowIDs) will sync")
    }
    return result  // adapted
}

/// Looking at the writes that may have been applied (the loop runs until the stream ends).
func gettingStartedRejected(_ client: OfflineClient) async throws {
    for try await rejected in client.rejectedMutations() {
        for write in rejected where write.mayHaveBeenApplied {
            print("\(write.table): this change may already be saved; look before retrying")
        }
    }
}
