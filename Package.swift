// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OfflineEngine",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "OfflineEngine", targets: ["OfflineEngine"]),
        .library(name: "Streams", targets: ["Streams"]),
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
        .executableTarget(name: "Sample", dependencies: ["OfflineEngine"]),
        // Appends queued writes until it is killed; the crash-recovery test drives it.
        .executableTarget(name: "StoreCrashHelper", dependencies: ["OfflineEngine"]),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["OfflineEngine", "Streams", "CSQLite"],
            path: "Benchmarks"
        ),
        .testTarget(name: "StreamsTests", dependencies: ["Streams"]),
        .testTarget(
            name: "OfflineEngineTests",
            dependencies: ["OfflineEngine", "StoreCrashHelper"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["OfflineEngine", "CLibPQ"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
