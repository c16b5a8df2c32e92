import Foundation
import PostgresGateway
import Synchronization

/// A throwaway PostgreSQL server for the test process: started on first use, listening only on
/// a unix socket in its own temporary folder, stopped and removed when the process exits.
///
/// Each test asks for its own database (`try PostgresServer.shared().createDatabase()`), so
/// tests run in parallel without sharing tables. PostgreSQL refuses to run as root: when the
/// tests run as root, the server runs as the user named by `OFFLINE_ENGINE_PG_USER` (default
/// `pgtest`), created with `useradd` if missing. `OFFLINE_ENGINE_PG_BIN` names the folder holding
/// `initdb` and `pg_ctl`; otherwise the newest `/usr/lib/postgresql/<version>/bin` is used.
///
/// The server runs with `wal_level = logical`: the follow tests read its changes from a
/// replication slot (``ReplicationSlotFeed``), as Supabase Realtime does.
final class PostgresServer: Sendable {
    /// The folder holding the server's socket (libpq's `host`).
    let socketDirectory: String
    /// The port in the socket's name.
    let port: Int
    /// The superuser to connect as.
    let user = "postgres"

    private let root: URL
    private let binDirectory: String
    private let runAs: String?
    private let databaseCounter = Mutex(0)

    private static let instance = Mutex<Result<PostgresServer, PostgresError>?>(nil)

    /// The process's server, started on first call.
    static func shared() throws -> PostgresServer {
        try instance.withLock { state in
            if let state { return try state.get() }
            let result: Result<PostgresServer, PostgresError>
            do {
                let server = try PostgresServer()
                atexit { PostgresServer.stopAtExit() }
                result = .success(server)
            } catch let error as PostgresError {
                result = .failure(error)
            } catch {
                result = .failure(PostgresError(sqlState: nil, message: "\(error)"))
            }
            state = result
            return try result.get()
        }
    }

    private static func stopAtExit() {
        let server = instance.withLock { state -> PostgresServer? in
            guard case .success(let server) = state else { return nil }
            return server
        }
        server?.stop()
    }

    private init() throws {
        binDirectory = try PostgresServer.findBinDirectory()
        runAs = geteuid() == 0 ? try PostgresServer.ensureUser() : nil
        // A short folder name: a unix socket path must stay under ~100 bytes.
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("pg-" + UUID().uuidString.prefix(8).lowercased())
        socketDirectory = root.path
        port = 5432
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: root.path)
        if let runAs {
            try FileManager.default.setAttributes([.ownerAccountName: runAs], ofItemAtPath: root.path)
        }
        let data = root.appendingPathComponent("data").path
        let log = root.appendingPathComponent("server.log").path
        do {
            try run(
                "initdb",
                ["-D", data, "-U", user, "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        } catch {
            // A system without the C.UTF-8 locale: the plain C locale always exists.
            try? FileManager.default.removeItem(atPath: data)
            try run(
                "initdb", ["-D", data, "-U", user, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        }
        let options =
            "-k \(socketDirectory) -p \(port) -c listen_addresses='' -c fsync=off"
            + " -c synchronous_commit=off -c full_page_writes=off -c TimeZone=UTC"
            + " -c max_connections=200"
            // Logical decoding, for the change feed the follow tests read from a replication slot.
            + " -c wal_level=logical -c max_replication_slots=32"
        do {
            try run("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"])
        } catch let error as PostgresError {
            let serverLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw PostgresError(sqlState: nil, message: error.message + "\n" + serverLog)
        }
        // Supabase's roles, once for the cluster (roles are not per database): the gateway runs
        // each request as one of them.
        let admin = try PostgresConnection(connectionInfo(database: "postgres"))
        for role in ["anon", "authenticated"] { try admin.execute("CREATE ROLE \(role) NOLOGIN") }
    }

    /// Creates an empty database with a fresh name for one test.
    func createDatabase(named prefix: String = "test") throws -> PostgresDatabase {
        let number = databaseCounter.withLock { counter in
            counter += 1
            return counter
        }
        let name = "\(prefix)_\(number)_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = try PostgresConnection(connectionInfo(database: "postgres"))
        try admin.execute("CREATE DATABASE \"\(name)\"")
        return PostgresDatabase(server: self, name: name)
    }

    /// libpq's connection string for `database`, over the server's unix socket.
    func connectionInfo(database: String) -> String {
        "host=\(socketDirectory) port=\(port) user=\(user) dbname=\(database)"
    }

    /// Stops the server and removes its folder.
    func stop() {
        let data = root.appendingPathComponent("data").path
        try? run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: root)
    }

    /// Runs one of the server's programs, as the unprivileged user when we are root.
    private func run(_ program: String, _ arguments: [String]) throws {
        let path = binDirectory + "/" + program
        if let runAs {
            try PostgresServer.runProcess("runuser", ["-u", runAs, "--", path] + arguments)
        } else {
            try PostgresServer.runProcess(path, arguments)
        }
    }

    /// Runs a program and waits for it, its output going to a file. `Process` is not used: the
    /// server `pg_ctl start` leaves running inherits the descriptors `Process` watches, and its
    /// wait would never return.
    @discardableResult
    private static func runProcess(_ executable: String, _ arguments: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("pg-output-" + UUID().uuidString).path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let path = executable.hasPrefix("/") ? executable : "/usr/bin/env"
        let argv = (executable.hasPrefix("/") ? [executable] : ["env", executable]) + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, cArguments, environ)
        guard spawned == 0 else {
            throw PostgresError(sqlState: nil, message: "could not start \(executable): errno \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS by hand: the low 7 bits hold a signal, the next 8 the code.
        let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
        guard exitCode == 0 else {
            throw PostgresError(
                sqlState: nil,
                message: "\(executable) \(arguments.first ?? "") failed (\(status)): \(text)")
        }
        return text
    }

    private static func findBinDirectory() throws -> String {
        if let configured = ProcessInfo.processInfo.environment["OFFLINE_ENGINE_PG_BIN"] {
            return configured
        }
        let base = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        let newest = versions.compactMap(Int.init).sorted().last { version in
            FileManager.default.isExecutableFile(atPath: "\(base)/\(version)/bin/initdb")
        }
        guard let newest else {
            throw PostgresError(sqlState: nil, message: "no PostgreSQL server programs (initdb) found")
        }
        return "\(base)/\(newest)/bin"
    }

    /// The unprivileged user the server runs as under root, created if missing.
    private static func ensureUser() throws -> String {
        let name = ProcessInfo.processInfo.environment["OFFLINE_ENGINE_PG_USER"] ?? "pgtest"
        if (try? runProcess("id", ["-u", name])) != nil { return name }
        // Another test process may create it at the same moment: check again after a failure.
        do {
            try runProcess("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name])
        } catch {
            if (try? runProcess("id", ["-u", name])) == nil { throw error }
        }
        return name
    }
}

/// One test's database on the shared server.
struct PostgresDatabase: Sendable {
    /// The server holding it.
    let server: PostgresServer
    /// The database name.
    let name: String

    /// A new connection to this database.
    func connect() throws -> PostgresConnection {
        try PostgresConnection(connectionInfo)
    }

    /// libpq's connection string for this database, over the server's unix socket.
    var connectionInfo: String { server.connectionInfo(database: name) }
}
