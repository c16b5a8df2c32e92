#if canImport(Darwin)
    import Foundation

    extension StoreFiles {
        /// Gives a folder store's folder and files the data protection class `protection`, so the
        /// system encrypts them with the device's keys (files SQLite makes later in the folder,
        /// such as the write-ahead log, take the folder's class). On iOS and its relatives a
        /// class that cannot be set fails the open (`.unreadable`); macOS applies it where the
        /// volume supports it.
        static func protect(_ storage: Storage, as protection: FileProtectionType) throws(StoreError) {
            guard case .directory(let folder) = storage else { return }
            let files = (storage.files ?? []).map(\.path).filter {
                FileManager.default.fileExists(atPath: $0)
            }
            for path in [folder.path] + files {
                do {
                    try FileManager.default.setAttributes([.protectionKey: protection], ofItemAtPath: path)
                } catch {
                    #if !os(macOS)
                        throw .unreadable
                    #endif
                }
            }
        }
    }
#endif
