/// The user-safe words for any error the engine reports: the typed errors' own descriptions,
/// which name no URL, filter value, token or row data, and nothing for anything else.
enum ErrorWording {
    static func summary(of error: any Error) -> String? {
        switch error {
        case let error as PostgrestError: return error.description
        case let error as TransportError: return error.description
        case let error as UnexpectedResponseError: return error.description
        case let error as QueryError: return error.description
        case let error as StoreError: return error.description
        case let error as JSONText.MalformedJSON: return error.description
        case let error as ClientError: return error.description
        case let error as StoredWriteUnreadable: return error.description
        case let error as TokenUnavailable: return error.description
        default: return nil
        }
    }
}
