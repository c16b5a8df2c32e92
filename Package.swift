// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OfflineEngine",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "OfflineEngine", targets: ["OfflineEngine"]),
        .library(name: "Streams", targets: ["Streams"]),
        // Test doubles for apps' and our tests: an in-memory PostgREST, a manual clock, a
        // recording transport with faults, a local HTTP server, and a PostgREST stand-in over
        // PostgreSQL (libpq).
        .library(name: "OfflineEngineTesting", targets: ["OfflineEngineTesting", "PostgresGateway"]),
    ],
    targets: [
        // In-house AsyncSequence operators; knows nothing of the engine.
        .target(name: "Streams"),
        // The system SQLite, through a module map (libsqlite3-dev on Linux).
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libpq, for the end-to-end and differential tests against a real PostgreSQL.
        .systemLibrary(
            name: "CLibPQ",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "OfflineEngine",
            dependencies: ["Streams", "CSQLite"]
        ),
        .target(
            name: "OfflineEngineTesting",
            dependencies: ["OfflineEngine"]
        ),
        // PostgREST's dialect as SQL over libpq, for end-to-end tests; its own target so that
        // what needs only the in-memory doubles (the sample) does not link libpq.
        .target(
            name: "PostgresGateway",
            dependencies: ["OfflineEngine", "CLibPQ"]
        ),
        // The sample's story and its remote mode, a library so that a test can run the story.
        .target(name: "SampleStory", dependencies: ["OfflineEngine", "OfflineEngineTesting"]),
        .executableTarget(name: "Sample", dependencies: ["SampleStory"]),
        // Appends queued writes until it is killed; the crash-recovery test drives it.
        .executableTarget(name: "StoreCrashHelper", dependencies: ["OfflineEngine"]),
        // Queues writes and replays them to a server until it is killed; the end-to-end crash
        // test drives it.
        .executableTarget(name: "ReplayCrashHelper", dependencies: ["OfflineEngine"]),
        // The converge soak's log, lists, tokens and dump, shared by its client and its checker.
        .target(name: "ConvergeSoak", dependencies: ["OfflineEngine"]),
        // One client of the converge soak: writes and reads until told to heal; the end-to-end
        // converge test runs four and kills, stops and resumes them.
        .executableTarget(
            name: "ConvergeClient", dependencies: ["ConvergeSoak", "OfflineEngine", "OfflineEngineTesting"]),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["OfflineEngine", "OfflineEngineTesting", "Streams", "CSQLite"],
            path: "Benchmarks"
        ),
        .testTarget(name: "StreamsTests", dependencies: ["Streams", "OfflineEngineTesting"]),
        .testTarget(
            name: "OfflineEngineTests",
            dependencies: ["OfflineEngine", "OfflineEngineTesting", "StoreCrashHelper"],
            // Store files of every schema version, read from the sources (StoreFixtureFile).
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "OfflineEngineTestingTests",
            dependencies: ["OfflineEngine", "OfflineEngineTesting"]
        ),
        // No @testable import: compiling the README's and the catalog's snippets proves the
        // public API is enough.
        .testTarget(
            name: "PublicAPITests",
            dependencies: ["OfflineEngine", "OfflineEngineTesting", "Streams"]
        ),
        // supabase-swift's own request-building cases, ported; no @testable import, so they
        // prove the public API is enough to send what supabase-swift sends.
        .testTarget(
            name: "SupabaseCompatibilityTests",
            dependencies: ["OfflineEngine", "OfflineEngineTesting"]
        ),
        .testTarget(
            name: "SampleTests", dependencies: ["SampleStory", "OfflineEngine", "OfflineEngineTesting"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "OfflineEngine", "OfflineEngineTesting", "PostgresGateway", "CLibPQ", "ReplayCrashHelper",
                "ConvergeSoak", "ConvergeClient",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
