// swift-tools-version: 6.0
import PackageDescription

/// Lucid: a dream-journal server and its offline client. Each module of Sources/ (but the
/// benchmarks), with the modules it imports; every arrow points up this list, and
/// `script/lint` holds the list to the package's graph:
///
///     LucidModel       ← (swift-collections)
///     LucidLayout      ← LucidModel
///     LucidJSON        ← LucidModel
///     LucidWire        ← LucidModel, LucidJSON
///     LucidMigrations
///     LucidSQLiteCore  ← LucidMigrations, CSQLite
///     LucidKit         ← LucidModel, LucidJSON, LucidWire, LucidMigrations, LucidSQLiteCore
///     LucidKitTesting  ← LucidKit, LucidWire
///     LucidThreads
///     LucidStore       ← LucidModel, LucidJSON
///     LucidSQLite      ← LucidModel, LucidStore, LucidJSON, LucidThreads, LucidMigrations, LucidSQLiteCore
///     LucidPostgres    ← LucidModel, LucidStore, LucidThreads, LucidMigrations, CPostgres
///     LucidCrypto      ← CSodium
///     LucidHTTP        ← LucidThreads, CMicroHTTPD, CZlib, (swift-collections)
///     LucidMetrics     ← LucidHTTP, (swift-prometheus)
///     LucidAPI         ← LucidModel, LucidStore, LucidJSON, LucidWire, LucidHTTP, LucidCrypto, LucidLayout, LucidMetrics, LucidThreads
///     lucid            ← LucidAPI, LucidHTTP, LucidStore, LucidSQLite, LucidSQLiteCore, LucidPostgres, LucidModel, LucidMetrics, LucidKit, LucidJSON, LucidWire, LucidThreads
///
/// An app links LucidKit, and with it the model, the wire module with its JSON, and the
/// SQLite floor with its migrations; nothing of the server (the stores, threads, HTTP, the API).
/// Each C library is wrapped by one module, which imports it internally. Where a new route,
/// store query, wire field or reducer case goes: see the README's "How it is built".
let package = Package(
    name: "Lucid",
    // LucidKit's: as far back as Observation goes. The server is for Linux alone.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "LucidModel", targets: ["LucidModel"]),
        .library(name: "LucidWire", targets: ["LucidWire"]),
        .library(name: "LucidKit", targets: ["LucidKit"]),
        .library(name: "LucidKitTesting", targets: ["LucidKitTesting"]),
    ],
    dependencies: [
        // TreeSet: a persistent hash set whose copies share structure, so every version of a
        // journal can know its dream ids without copying them.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The Prometheus registry and its text format, for `lucid serve --metrics-address`
        // (it brings swift-metrics' CoreMetrics and swift-atomics along).
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // C libraries, each wrapped by exactly one Swift module.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),

        // libmicrohttpd 1.0.1, vendored in libmicrohttpd/ (its README says what was taken, the
        // one patch, and how MHD_config.h was made), built with the defines and the one flag
        // its configure adds; and the shim in include/. Linux only, like the server: the
        // client modules do not depend on it.
        .target(
            name: "CMicroHTTPD",
            exclude: ["libmicrohttpd/COPYING", "libmicrohttpd/README.md", "libmicrohttpd/patches"],
            cSettings: [
                .headerSearchPath("libmicrohttpd"),
                .headerSearchPath("libmicrohttpd/src/include"),
                .define("HAVE_CONFIG_H"),
                .define("BUILDING_MHD_LIB", to: "1"),
                .define("NDEBUG", to: "1"),
                .define("_GNU_SOURCE"),
                .define("_XOPEN_SOURCE", to: "700"),
                // Configure always adds it: upstream is built and tested only without
                // type-based alias analysis. An unsafe flag bars only a product that contains
                // the target from being depended on, and this target is in none.
                .unsafeFlags(["-fno-strict-aliasing"]),
            ]
        ),

        .systemLibrary(
            name: "CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),

        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),

        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // The domain: values, pure reducers, diffs. Imports nothing of ours.
        .target(
            name: "LucidModel",
            dependencies: [.product(name: "HashTreeCollections", package: "swift-collections")]
        ),

        // Layouts as values: geometry only, composed into dream cards drawn as SVG or as
        // text. Imports nothing of ours but the model, and no C.
        .target(name: "LucidLayout", dependencies: ["LucidModel"]),

        // What a store promises, without C: the protocols, their values and errors, and the
        // engine both stores share (heads, version plans, stored forms, written as the API's
        // documents are).
        .target(name: "LucidStore", dependencies: ["LucidModel", "LucidJSON"]),

        // Forward-only schema migrations and their rules, for any database: both stores' and
        // the device's file.
        .target(name: "LucidMigrations"),

        // One SQLite connection: opening, statements, errors, transactions, migrations and
        // page copies. The floor of the server's SQLite store and of the device's file.
        .target(name: "LucidSQLiteCore", dependencies: ["LucidMigrations", "CSQLite"]),

        // SQLite persistence of versioned journals, with backup and check.
        .target(
            name: "LucidSQLite",
            dependencies: ["LucidModel", "LucidStore", "LucidJSON", "LucidThreads", "LucidMigrations", "LucidSQLiteCore"],
            plugins: ["EmbedResources"]
        ),

        // PostgreSQL persistence through libpq, for running many instances on one database.
        .target(
            name: "LucidPostgres",
            dependencies: ["LucidModel", "LucidStore", "LucidThreads", "LucidMigrations", "CPostgres"],
            plugins: ["EmbedResources"]
        ),

        // Build-time embedding of migrations/ and openapi.yaml, so the binary never
        // needs the source tree at run time.
        .executableTarget(name: "ResourceEmbedder"),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["ResourceEmbedder"]
        ),

        // A thread an object owns for a loop of its own, waited for when the object stops.
        .target(name: "LucidThreads"),

        // JSON read in one pass and written byte by byte, without Foundation's coders.
        .target(name: "LucidJSON", dependencies: ["LucidModel"]),

        // The API's documents as a client and the server both read and write them: the
        // model, actions, snapshots, history, problems, export and import formats.
        .target(name: "LucidWire", dependencies: ["LucidModel", "LucidJSON"]),

        // The offline-first client: a local queue of changes, the server's state, the merged
        // view of the two by the model's reducer, and a sync that never drops a change.
        .target(name: "LucidKit", dependencies: ["LucidModel", "LucidJSON", "LucidWire", "LucidMigrations", "LucidSQLiteCore"]),

        // For an app's tests: a transport that puts a flaky network's faults before a real one.
        .target(name: "LucidKitTesting", dependencies: ["LucidKit", "LucidWire"]),

        // Passwords (argon2id) and session tokens, over libsodium.
        .target(name: "LucidCrypto", dependencies: ["CSodium"]),

        // libmicrohttpd behind plain Request/Response values, and gzip (zlib) for bodies
        // worth compressing.
        .target(
            name: "LucidHTTP",
            dependencies: ["CMicroHTTPD", "CZlib", "LucidThreads", .product(name: "DequeModule", package: "swift-collections")]
        ),

        // Counters, histograms and gauges in Prometheus' text format, and the small
        // application that serves them on a listener of their own.
        .target(
            name: "LucidMetrics",
            dependencies: ["LucidHTTP", .product(name: "Prometheus", package: "swift-prometheus")]
        ),

        // Routes, handlers, wire types, problems, accounts: joins model, store and HTTP.
        .target(
            name: "LucidAPI",
            dependencies: [
                "LucidModel", "LucidStore", "LucidJSON", "LucidWire", "LucidHTTP", "LucidCrypto", "LucidLayout", "LucidMetrics",
                "LucidThreads",
            ],
            plugins: ["EmbedResources"]
        ),

        // The executable: command line, configuration, wiring, signals.
        .executableTarget(
            name: "lucid",
            dependencies: [
                "LucidAPI", "LucidHTTP", "LucidStore", "LucidSQLite", "LucidSQLiteCore", "LucidPostgres", "LucidModel", "LucidMetrics", "LucidKit",
                "LucidJSON",
                "LucidWire", "LucidThreads",
            ]),

        .executableTarget(
            name: "lucid-bench-store",
            dependencies: ["LucidModel", "LucidStore", "LucidSQLite"],
            path: "Sources/BenchStore"
        ),

        .executableTarget(
            name: "lucid-bench-kit",
            dependencies: ["LucidKit", "LucidKitTesting", "LucidModel"],
            path: "Sources/BenchKit"
        ),

        .executableTarget(
            name: "lucid-bench-cards",
            dependencies: ["LucidModel", "LucidLayout"],
            path: "Sources/BenchCards"
        ),

        // Seeded random journals for the property tests and the benchmark, and real threads for tests.
        .target(name: "LucidTestSupport", dependencies: ["LucidModel"], path: "Tests/LucidTestSupport"),
        .testTarget(name: "LucidModelTests", dependencies: ["LucidModel", "LucidTestSupport"]),
        // A private PostgreSQL server for the test run: its own folder, a Unix socket, no port.
        .target(name: "LucidPostgresTesting", dependencies: ["LucidPostgres"], path: "Tests/LucidPostgresTesting"),
        .testTarget(
            name: "LucidStoreTests",
            dependencies: [
                "LucidModel", "LucidStore", "LucidSQLite", "LucidSQLiteCore", "LucidMigrations", "LucidPostgres", "LucidPostgresTesting",
                "LucidTestSupport", "LucidThreads",
            ],
            exclude: ["schema.golden.sql"]
        ),
        // A blocking HTTP/1.1 client over a socket, for the tests that talk to a real server,
        // and the system's `gzip -d` to read compressed answers with.
        .target(name: "LucidHTTPTesting", path: "Tests/LucidHTTPTesting"),
        .testTarget(name: "LucidHTTPTests", dependencies: ["LucidHTTP", "LucidHTTPTesting"]),
        .testTarget(name: "LucidMetricsTests", dependencies: ["LucidMetrics", "LucidHTTP", "LucidHTTPTesting"]),
        // A real server for the tests that talk to one: in this process on a temporary database
        // (SQLite, or the private PostgreSQL), or the `lucid` binary beside the test bundle.
        .target(
            name: "LucidServerTesting",
            dependencies: [
                "LucidAPI", "LucidHTTP", "LucidStore", "LucidSQLite", "LucidSQLiteCore", "LucidPostgres", "LucidModel", "LucidCrypto",
                "LucidHTTPTesting", "LucidPostgresTesting",
            ],
            path: "Tests/LucidServerTesting"
        ),
        .testTarget(
            name: "LucidAPITests",
            dependencies: [
                "LucidAPI", "LucidHTTP", "LucidStore", "LucidSQLite", "LucidSQLiteCore", "LucidPostgres", "LucidModel", "LucidJSON", "LucidWire",
                "LucidCrypto", "LucidHTTPTesting", "LucidServerTesting", "LucidPostgresTesting", "LucidTestSupport", "LucidMetrics",
            ]
        ),
        .testTarget(
            name: "LucidWireTests", dependencies: ["LucidWire", "LucidJSON", "LucidModel", "LucidStore", "LucidTestSupport"],
            // Files to import, read through #filePath (the API's import tests read them too).
            exclude: ["Samples"]
        ),
        .testTarget(name: "LucidCryptoTests", dependencies: ["LucidCrypto"]),
        .testTarget(name: "LucidKitTests", dependencies: ["LucidKit", "LucidModel", "LucidJSON", "LucidWire", "LucidSQLiteCore", "LucidTestSupport"]),
        // LucidKit against a real server, and `lucid journal`, the command built on it.
        .testTarget(
            name: "LucidKitIntegrationTests",
            dependencies: [
                "LucidKit", "LucidKitTesting", "LucidAPI", "LucidModel", "LucidJSON", "LucidWire", "LucidStore", "LucidCrypto",
                "LucidHTTPTesting", "LucidServerTesting", "LucidTestSupport",
            ]
        ),
        .testTarget(
            name: "LucidPostgresTests", dependencies: ["LucidPostgres", "LucidPostgresTesting", "LucidStore", "LucidMigrations", "LucidTestSupport"]),
        .testTarget(name: "LucidLayoutTests", dependencies: ["LucidLayout", "LucidModel"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every Swift target: existentials spelled `any`, a module's members visible only where it is
// imported, and imports internal unless marked `public`, so no module re-exports another by accident.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
