import Locking
import Dispatch
import Foundation
import Imaging

/// One image of the demo gallery, encoded and ready to serve.
struct GalleryAsset: Sendable {
    /// How an asset is encoded.
    enum Kind: String, Sendable, Codable {
        case jpeg
        case progressiveJPEG = "progressive-jpeg"
        case png
        case webp
        case avif
        case animatedGIF = "animated-gif"

        /// The format's facts in Imaging's registry.
        var format: ImageFormat {
            switch self {
            case .jpeg, .progressiveJPEG: .jpeg
            case .png: .png
            case .webp: .webp
            case .avif: .avif
            case .animatedGIF: .gif
            }
        }
    }

    /// The file name, also its path on the demo server (`/gallery/NAME`).
    var name: String
    var width: Int
    var height: Int
    var kind: Kind
    /// The encoded bytes.
    var data: Data

    /// The HTTP content type.
    var contentType: String { kind.format.mimeType }
}

/// Makes the demo gallery: `count` photo-like images of varied sizes and formats, always the same
/// for the same count. The first is a very large JPEG (6000×4000), the second a progressive JPEG,
/// the third an animated GIF (480×320, 6 frames), the fourth an AVIF (960×640); every sixth is a
/// PNG, every sixth from the fifth on a WebP; the rest are baseline JPEGs from 1280 to 2048
/// pixels wide. Every file is made with Comet's own encoders.
///
/// Images are painted and encoded in parallel. With a `cacheDirectory`, encoded files are kept
/// there and reused by the next run (they are deterministic, so a file with the right name is
/// the right file).
struct GalleryGenerator: Sendable {
    /// What to paint for one asset.
    struct Spec: Sendable {
        var name: String
        var width: Int
        var height: Int
        var kind: GalleryAsset.Kind
        var seed: UInt32
        /// Paint at 1/`enlargement` of the size, then enlarge (for the very large image).
        var enlargement: Int = 1
    }

    /// Bumped when the painter changes, so cached files from an older painter are not reused.
    static let version = 3

    /// The number of images (at least 2).
    let count: Int

    /// Creates a generator of `count` images (at least 2: the large and the progressive one).
    init(count: Int) {
        self.count = max(2, count)
    }

    /// The images, in gallery order.
    var specs: [Spec] {
        let sizes = [
            (1600, 1067), (1067, 1600), (1920, 1080), (1200, 1200), (1440, 960),
            (960, 1280), (2048, 1152), (1280, 853),
        ]
        return (0..<count).map { index in
            let seed = UInt32(index) &* 2_654_435_761 &+ 12_345
            let scene = PhotoPainter.palette(for: seed).name
            let number = String(format: "%02d", index)
            switch index {
            case 0:
                return Spec(
                    name: "large-\(scene)-6000x4000.jpg", width: 6000, height: 4000, kind: .jpeg,
                    seed: seed, enlargement: 4)
            case 1:
                return Spec(
                    name: "progressive-\(scene)-\(number).jpg", width: 1600, height: 1067,
                    kind: .progressiveJPEG, seed: seed)
            case 2:
                return Spec(
                    name: "animated-\(scene)-\(number).gif", width: 480, height: 320, kind: .animatedGIF, seed: seed)
            case 3:
                return Spec(name: "\(scene)-\(number).avif", width: 960, height: 640, kind: .avif, seed: seed)
            case let index where index % 6 == 4:
                let (width, height) = sizes[index % sizes.count]
                return Spec(name: "\(scene)-\(number).webp", width: width, height: height, kind: .webp, seed: seed)
            case let index where index % 6 == 5:
                return Spec(name: "\(scene)-\(number).png", width: 900, height: 600, kind: .png, seed: seed)
            default:
                let (width, height) = sizes[index % sizes.count]
                return Spec(name: "\(scene)-\(number).jpg", width: width, height: height, kind: .jpeg, seed: seed)
            }
        }
    }

    /// The result of ``generate(cacheDirectory:)``.
    struct Output: Sendable {
        var assets: [GalleryAsset]
        /// How many came from the cache directory instead of being painted.
        var reused: Int
    }

    /// Paints and encodes every image (or reads it from `cacheDirectory`).
    func generate(cacheDirectory: URL?) throws -> Output {
        let specs = self.specs
        if let cacheDirectory {
            try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        }
        let marker = cacheDirectory?.appendingPathComponent(".generator-v\(Self.version)")
        let canReuse = marker.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
        let results = Locked<[Int: Result<(GalleryAsset, Bool), any Error>]>([:])
        // Largest first, so the big image does not start last on a 2-core machine.
        let order = specs.indices.sorted { specs[$0].width * specs[$0].height > specs[$1].width * specs[$1].height }
        DispatchQueue.concurrentPerform(iterations: order.count) { position in
            let index = order[position]
            let spec = specs[index]
            let result = Result { () throws -> (GalleryAsset, Bool) in
                let file = cacheDirectory?.appendingPathComponent(spec.name)
                if canReuse, let file, let data = try? Data(contentsOf: file), !data.isEmpty {
                    return (
                        GalleryAsset(
                            name: spec.name, width: spec.width, height: spec.height, kind: spec.kind, data: data), true
                    )
                }
                let data = try Self.encode(spec)
                if let file { try data.write(to: file, options: .atomic) }
                return (
                    GalleryAsset(name: spec.name, width: spec.width, height: spec.height, kind: spec.kind, data: data),
                    false
                )
            }
            results.withLock { $0[index] = result }
        }
        var assets: [GalleryAsset] = []
        var reused = 0
        let finished = results.withLock { $0 }
        for index in specs.indices {
            let (asset, wasReused) = try finished[index]!.get()
            assets.append(asset)
            if wasReused { reused += 1 }
        }
        if let marker, !canReuse { try Data().write(to: marker) }
        return Output(assets: assets, reused: reused)
    }

    /// Paints and encodes one image.
    static func encode(_ spec: Spec) throws -> Data {
        let factor = max(1, spec.enlargement)
        var image = PhotoPainter.paint(width: spec.width / factor, height: spec.height / factor, seed: spec.seed)
        if factor > 1 { image = PhotoPainter.enlarged(image, by: factor) }
        switch spec.kind {
        case .jpeg: return try ImageEncoders.jpeg(image, quality: 0.86)
        case .progressiveJPEG: return try ImageEncoders.jpeg(image, quality: 0.86, progressive: true)
        case .png: return try ImageEncoders.png(image, compressionLevel: 3)
        case .webp: return try ImageEncoders.webp(image, quality: 0.82)
        case .avif: return try ImageEncoders.avif(image, quality: 0.6, speed: 9)
        case .animatedGIF: return try ImageEncoders.gif(Self.panning(image, frames: 6))
        }
    }

    /// An animation that pans across `image`: each frame the picture shifted a sixth further
    /// to the left (wrapping around), 0.15 s a frame, looping forever.
    static func panning(_ image: Image, frames: Int) -> AnimatedImage {
        let width = image.width
        let bytes = image.packedBytes
        let animationFrames = (0..<frames).map { index in
            let shift = index * width / frames
            let frame = Image(width: width, height: image.height, isOpaque: image.isOpaque) { pixels, bytesPerRow in
                for y in 0..<image.height {
                    let row = y * width * 4
                    for x in 0..<width {
                        let source = row + ((x + shift) % width) * 4
                        for c in 0..<4 { pixels[y * bytesPerRow + x * 4 + c] = bytes[source + c] }
                    }
                }
            }
            return AnimatedImage.Frame(image: frame, duration: 0.15)
        }
        return AnimatedImage(type: .gif, frames: animationFrames, loopCount: 0, data: Data())
    }
}
