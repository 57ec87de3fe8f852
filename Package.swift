// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Comet",
    products: [
        .library(name: "Comet", targets: ["Comet"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "Streams", targets: ["Streams"]),
        .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
        .library(name: "StreamsFoundation", targets: ["StreamsFoundation"]),
        .executable(name: "comet", targets: ["CometCLI"]),
        .library(name: "HanekeCompat", targets: ["HanekeCompat"]),
        .library(name: "NukeCompat", targets: ["NukeCompat"]),
        .library(name: "AlamofireImageCompat", targets: ["AlamofireImageCompat"]),
        // The pthread-based lock ThreadSanitizer understands, for the Server/ package (comet-server).
        .library(name: "Locking", targets: ["Locking"]),
        // Loopback test servers, generated images and the corpus location (`TestCorpus`), for the
        // tests of the nested packages (Loaders/ uses the servers, Server/ the corpus location).
        // Not API: nothing outside tests should depend on it.
        .library(name: "CometTestSupport", targets: ["CometTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.20.0"),
        // Property-based tests of the keys that share work and results (test targets only).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
    ],
    targets: [
        // System libraries (Debian: libpng-dev, libjpeg62-turbo-dev, libwebp-dev, libgif-dev,
        // libavif-dev, libheif-dev, libjxl-dev, liblcms2-dev; `make setup` installs them).
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        // Debian: libwebp-dev (libwebp, libwebpdemux), libgif-dev (no pkg-config file), libavif-dev.
        .systemLibrary(
            name: "CLibWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]
        ),
        .systemLibrary(
            name: "CLibGIF",
            providers: [.apt(["libgif-dev"])]
        ),
        .systemLibrary(
            name: "CLibAVIF",
            providers: [.apt(["libavif-dev"])]
        ),
        // Every setjmp/longjmp and C callback of the codec libraries lives here; Swift sees
        // status codes.
        .target(
            name: "CImageCodecs",
            dependencies: ["CLibPNG", "CLibJPEG", "CLibWebP", "CLibGIF", "CLibAVIF"],
            // giflib has no pkg-config file, libavif's adds a flag SwiftPM refuses, and the C
            // target needs libwebpmux (animation encoding) besides what CLibWebP links, and
            // Little CMS (liblcms2-dev, colour management; its header is on the default path):
            // by name. libheif and libjxl (with its thread pool) likewise: their headers are on
            // the default paths and only the C target calls them.
            linkerSettings: [
                .linkedLibrary("gif"), .linkedLibrary("avif"), .linkedLibrary("webpmux"), .linkedLibrary("lcms2"),
                .linkedLibrary("heif"), .linkedLibrary("jxl"), .linkedLibrary("jxl_threads"),
            ]
        ),
        // Typed entry points to libcurl's variadic calls, for the default data loader (Debian:
        // libcurl4-openssl-dev, the libcurl FoundationNetworking already loads).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // The resampler's inner loops (SSE2 where the compiler targets it, portable C elsewhere).
        .target(name: "CImageKernels"),
        .target(name: "Imaging", dependencies: ["CImageCodecs", "CImageKernels", "Locking"]),
        // The one lock type (a pthread mutex ThreadSanitizer understands) of Streams, Comet, the
        // tool, the tests and the server (a product only for Server/).
        .target(name: "Locking"),
        .target(name: "Streams", dependencies: ["Locking"]),
        // A virtual-time scheduler for testing time-based pipelines (no Foundation).
        .target(name: "StreamsTesting", dependencies: ["Streams", "Locking"]),
        // Streams' Foundation-bound pieces (RunLoop/OperationQueue schedulers, Timer,
        // NotificationCenter and URLSession publishers, JSON/property-list coders), apart so
        // that Streams itself needs no Foundation.
        .target(name: "StreamsFoundation", dependencies: ["Streams", "Locking"]),
        .target(
            name: "Comet",
            dependencies: [
                "Imaging", "Streams", "Locking", "CCurl", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "CometCLI",
            dependencies: [
                "Comet",
                "Imaging",
                "Locking",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        // Migration shim: Haneke's generic cache API on Comet (guide: Migration/Haneke/README.md).
        .target(name: "HanekeCompat", dependencies: ["Comet"], path: "Migration/Haneke/Sources"),
        // Migration shim: the Nuke 4 API on Comet's public API (guide: Migration/Nuke4/README.md).
        .target(name: "NukeCompat", dependencies: ["Comet"], path: "Migration/Nuke4/Sources"),
        // Shared by the test targets: a FlyingFox server and a raw fault server on 127.0.0.1,
        // generated test images, the corpus location. Only test targets depend on it.
        .target(
            name: "CometTestSupport",
            dependencies: [
                "Imaging",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            path: "Tests/Support"
        ),
        // The child process of the disk-cache crash-safety test (killed with SIGKILL mid-write).
        .executableTarget(
            name: "CacheCrashWriter",
            dependencies: ["Comet", "CometTestSupport"],
            path: "Tests/Tools/CacheCrashWriter"
        ),
        // The corpus locator and the other shared test helpers.
        .testTarget(name: "CometTestSupportTests", dependencies: ["CometTestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "CometTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting", "Locking"]),
        .testTarget(
            name: "StreamsFoundationTests",
            dependencies: ["StreamsFoundation", "Streams", "CometTestSupport", .product(name: "FlyingFox", package: "FlyingFox")]
        ),
        .testTarget(
            name: "CometCLITests",
            dependencies: ["CometCLI", "Comet", .product(name: "FlyingFox", package: "FlyingFox")]
        ),
        .testTarget(
            name: "CometTests",
            dependencies: [
                "Comet", "Locking", "CometTestSupport", "CacheCrashWriter", "StreamsTesting",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            exclude: ["EndToEnd/Fixtures"]
        ),
        // Comet's keys against a model of what a result depends on (Comet.docc/CacheKeys.md).
        .testTarget(
            name: "KeyPropertyTests",
            dependencies: ["Comet", "Locking", "CometTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "HanekeCompatTests",
            dependencies: [
                "HanekeCompat", "Comet", "CometTestSupport", .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "NukeCompatTests",
            dependencies: [
                "NukeCompat", "Comet", "CometTestSupport", .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Migration shim: AlamofireImage 2 (and the small part of Alamofire 3 it exposes) on Comet.
        .target(
            name: "AlamofireImageCompat",
            dependencies: ["Comet", "Imaging"],
            path: "Migration/AlamofireImage2/Sources"
        ),
        .testTarget(
            name: "AlamofireImageCompatTests",
            dependencies: [
                "AlamofireImageCompat", "Comet", "CometTestSupport", .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
