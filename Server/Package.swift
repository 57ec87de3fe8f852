// swift-tools-version:6.1
// `comet-server`: a thumbnail service on Comet's pipeline (Hummingbird 2, swift-service-lifecycle,
// swift-metrics + swift-prometheus, the system's libcrypto for SHA-256, sources fetched with CometAsyncHTTPClient, spans
// exported by swift-otel when asked), and
// its Redis scale-out (Debian's hiredis). A
// nested package, like Benchmarks/, so that library adopters, `make demo` and the root build never
// resolve or compile the server stack (SwiftNIO, Hummingbird, crypto); only `cd Server && swift
// build` pays for them.
import PackageDescription

let package = Package(
    name: "CometServer",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CometServer", targets: ["CometServer"]),
        .library(name: "CometRedis", targets: ["CometRedis"]),
        .executable(name: "comet-server", targets: ["comet-server"]),
    ],
    traits: [
        // On by default; `--disable-default-traits` builds the command without swift-otel (the
        // sanitizer runs do: swift-otel 1.6 does not compile under --sanitize with Swift 6.3).
        .trait(name: "OTLPExport", description: "comet-server --otlp-endpoint: spans exported over OTLP/HTTP (swift-otel)"),
        .default(enabledTraits: ["OTLPExport"]),
    ],
    dependencies: [
        .package(name: "Comet", path: ".."),
        // Sources are fetched with AsyncHTTPClient, on the event loops Hummingbird runs.
        .package(name: "CometAsyncHTTPClient", path: "../Loaders/AsyncHTTPClient"),
        // No traits: the server needs neither swift-configuration nor full Foundation from it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Deque for the first-come queues (already built for SwiftNIO).
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // Already built for Hummingbird; the tests drive single handlers on an embedded channel.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        // Spans for each request (already built for Hummingbird); tests use its in-memory tracer.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.6.0"),
        // The opt-in OTLP/HTTP span exporter of the `comet-server` command (`--otlp-endpoint`):
        // the executable alone depends on it, and without the gRPC trait (no gRPC stack to build).
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // hiredis 0.14 from Debian (libhiredis-dev), used through its synchronous API only.
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // The system's libcrypto (OpenSSL 3, libssl-dev): SHA-256 with its state as a plain value,
        // for the per-request signature check and result key.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // glibc's malloc_trim, for the heap trimmer (Swift's Glibc module does not export it).
        .target(name: "CMalloc"),
        // A Redis client (bounded pool of blocking connections on dedicated threads, timeouts,
        // reconnect, circuit breaker) and the cross-instance result store built on it.
        .target(
            name: "CometRedis",
            dependencies: [
                "CHiredis",
                .product(name: "Locking", package: "Comet"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // The service: configuration, URL grammar, signing, source policy, load shedding,
        // caching, error mapping, routes and metrics. Everything but the command line.
        .target(
            name: "CometServer",
            dependencies: [
                "CometRedis",
                "CMalloc",
                "CLibCrypto",
                .product(name: "Comet", package: "Comet"),
                .product(name: "CometAsyncHTTPClient", package: "CometAsyncHTTPClient"),
                .product(name: "Locking", package: "Comet"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The `comet-server` command: options, environment, signals (swift-service-lifecycle).
        .executableTarget(
            name: "comet-server",
            dependencies: [
                "CometServer",
                "CometRedis",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTLPExport"])),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "CometServerTests",
            dependencies: [
                "CometServer",
                "ServerTestSupport",
                .product(name: "Locking", package: "Comet"),
                // The corpus location every suite of the repository shares (`TestCorpus`).
                .product(name: "CometTestSupport", package: "Comet"),
                // Built for the tests that run it as a process (SIGTERM during a request; two
                // instances sharing one Redis).
                "comet-server",
                .product(name: "Comet", package: "Comet"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        // What both test targets use: a real redis-server on a free loopback port, socket helpers.
        .target(name: "ServerTestSupport", path: "Tests/ServerTestSupport"),
        .testTarget(
            name: "CometRedisTests",
            dependencies: [
                "CometRedis",
                "ServerTestSupport",
                .product(name: "Locking", package: "Comet"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
