// swift-tools-version:6.1
// Comet's thumbnail service (`comet-server`) and its Redis scale-out. A separate package, like
// Benchmarks/, so the library build and its CI never compile the server stack.
import PackageDescription

let package = Package(
    name: "CometServer",
    products: [
        .library(name: "CometRedis", targets: ["CometRedis"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        // hiredis 0.14 from Debian (libhiredis-dev), used through its synchronous API only.
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // A Redis client (bounded pool of blocking connections on dedicated threads, timeouts,
        // reconnect, circuit breaker) and the cross-instance result store built on it.
        .target(
            name: "CometRedis",
            dependencies: [
                "CHiredis",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "CometRedisTests",
            dependencies: [
                "CometRedis",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
