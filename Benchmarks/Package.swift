// swift-tools-version:6.0
// Comet's benchmark suite: every Comet figure next to a reference measured in the same run
// (plain C libjpeg-turbo/libpng loops over the same bytes). Separate from the main package so
// the main build and CI stay light. Run with `make bench`.
import PackageDescription

let package = Package(
    name: "CometBenchmarks",
    dependencies: [
        .package(name: "Comet", path: ".."),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.20.0"),
    ],
    targets: [
        .target(
            name: "CReference",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]
        ),
        .executableTarget(
            name: "CometBenchmarks",
            dependencies: [
                "CReference",
                .product(name: "Comet", package: "Comet"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
