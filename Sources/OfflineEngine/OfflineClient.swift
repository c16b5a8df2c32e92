/// Placeholder so the query builders compile; the facade replaces this file.
public actor OfflineClient {}
