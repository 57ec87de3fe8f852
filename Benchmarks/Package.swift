// swift-tools-version:6.1
// Comet's benchmark suite on ordo-one's package-benchmark: every Comet figure next to a reference
// measured in the same run (plain C libjpeg-turbo/libpng loops over the same bytes, plain Swift
// or POSIX code for the pipeline figures), so each headline is a ratio. A separate package, so
// the main build and CI never compile the benchmark tooling. Run with `make bench`.
import PackageDescription

let package = Package(
    name: "CometBenchmarks",
    dependencies: [
        .package(name: "Comet", path: ".."),
        // The opt-in AsyncHTTPClient loader, measured beside URLSession in the same run.
        .package(name: "CometAsyncHTTPClient", path: "../Loaders/AsyncHTTPClient"),
        // comet-server's library, for its URL path's row. Its SwiftNIO and AsyncHTTPClient are
        // built here already; Hummingbird and the metrics packages are added.
        .package(name: "CometServer", path: "../Server"),
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.20.0"),
        // Benchmark-only: the Streams rows are measured against it in the same run.
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // The benchmarks. package-benchmark runs every executable target whose folder sits in a
        // folder named `Benchmarks` (this package's own folder), so only this one lives here.
        .executableTarget(
            name: "CometBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                "CReference",
                "VipsReference",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "Comet", package: "Comet"),
                .product(name: "CometAsyncHTTPClient", package: "CometAsyncHTTPClient"),
                .product(name: "CometServer", package: "CometServer"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "CometBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // Workloads (generated deterministically), the loopback server and instant loaders.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Comet", package: "Comet"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        // The references: plain C loops over libjpeg-turbo, libpng, libwebp, libavif and stdio.
        .target(
            name: "CReference",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [
                .linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("webp"), .linkedLibrary("avif"),
                .linkedLibrary("m"),
            ]
        ),
        // libvips (libvips-dev, in the Makefile's APT_PACKAGES), the thumbnail figures' outside
        // reference: linked here only, never by the library.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "VipsReference", dependencies: ["CVips"], cSettings: [.unsafeFlags(["-O2"])]),
        // A profiling harness (not a benchmark): the default-configuration thumbnail batch in a
        // plain process, for `perf record` (BENCHMARKS.md, "Where the CPU goes").
        .executableTarget(
            name: "ThumbnailBatch",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Comet", package: "Comet"),
                .product(name: "CometAsyncHTTPClient", package: "CometAsyncHTTPClient"),
            ]
        ),
        // Reads package-benchmark's export and prints each Comet figure with its reference and ratio.
        .executableTarget(name: "BenchmarkReport", dependencies: ["BenchmarkSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
