// swift-tools-version:6.0
// libFuzzer harnesses for Comet's decoders and its cache-key path. A separate package so the main build stays plain:
// build with `make fuzz` (swift build --sanitize=fuzzer --sanitize=address).
import PackageDescription

let package = Package(
    name: "CometFuzz",
    dependencies: [.package(name: "Comet", path: "..")],
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
    ],
    swiftLanguageModes: [.v6]
)
