// swift-tools-version:6.0
// libFuzzer harnesses for Comet's decoders. A separate package so the main build stays plain:
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
    ],
    swiftLanguageModes: [.v6]
)
