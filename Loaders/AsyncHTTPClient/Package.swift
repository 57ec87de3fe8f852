// swift-tools-version:6.1
// `CometAsyncHTTPClient`: a ``DataLoading`` for Comet built on AsyncHTTPClient (SwiftNIO), for
// servers that already run NIO's event loops (Hummingbird, Vapor, comet-server). A nested
// package, like Server/ and Benchmarks/, so that Comet's library, `make demo` and the root build
// never resolve or compile SwiftNIO: URLSession stays the library's default loader.
import PackageDescription

let package = Package(
    name: "CometAsyncHTTPClient",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CometAsyncHTTPClient", targets: ["CometAsyncHTTPClient"]),
    ],
    dependencies: [
        .package(name: "Comet", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        // Tests: Comet's loopback servers (CometTestSupport) are built on FlyingFox.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.20.0"),
    ],
    targets: [
        .target(
            name: "CometAsyncHTTPClient",
            dependencies: [
                .product(name: "Comet", package: "Comet"),
                .product(name: "Locking", package: "Comet"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "CometAsyncHTTPClientTests",
            dependencies: [
                "CometAsyncHTTPClient",
                .product(name: "Comet", package: "Comet"),
                .product(name: "Locking", package: "Comet"),
                .product(name: "CometTestSupport", package: "Comet"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
