// swift-tools-version:6.1
// libFuzzer harnesses for Comet's decoders, its cache-key path and comet-server's request path. A separate package so the main build stays plain:
// build with `make fuzz` (swift build --sanitize=fuzzer --sanitize=address).
import PackageDescription

let package = Package(
    name: "CometFuzz",
    dependencies: [
        .package(name: "Comet", path: ".."),
        // comet-server's library, for its request path. Without its default trait (swift-otel,
        // which the executable alone uses, does not compile under --sanitize).
        .package(name: "CometServer", path: "../Server", traits: []),
    ],
    targets: [
        .executableTarget(
            name: "DecoderFuzzer",
            dependencies: [.product(name: "Imaging", package: "Comet")]
        ),
        // Request → cache key → file path, with hostile URLs and keys.
        .executableTarget(
            name: "CacheKeyFuzzer",
            dependencies: [.product(name: "Comet", package: "Comet")]
        ),
        // A request path (and Accept) → signature, grammar, options, canonical source, policy,
        // canonical spelling and key: everything comet-server runs before a fetch.
        .executableTarget(
            name: "URLPathFuzzer",
            dependencies: [.product(name: "CometServer", package: "CometServer")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
