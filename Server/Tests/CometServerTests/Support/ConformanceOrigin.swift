import Comet
import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// The conformance suite's origin on 127.0.0.1, started once and shared, serving images made
/// here with Comet's encoders in the sizes imgproxy's own tests use, so that every expected
/// size can be checked exactly. It counts its requests per path. Routes:
/// - `/gen/{W}x{H}.{png|jpg|webp|gif|avif}`: a W×H opaque picture (``gradient(width:height:)``)
/// - `/gen/{W}x{H}-alpha.png`: the same with a transparent left half
/// - `/anim/{W}x{H}.gif`: a three-frame animated GIF of W×H
/// - `/fixture/{name}`: the trim sources (``trimFrames``, ``trimBands``, ``trimAlpha``)
/// - `/corpus/{folder}/{name}`: a file of the shared test corpus (404 when it is not there)
/// - `/tag/{anything}/{spec}`: `/gen/{spec}` under a path of the test's own (for its counts)
/// - `/missing`: 404; `/garbage`: 200 with bytes that are no image
final class ConformanceOrigin: Sendable {
    private static let shared = Task { try await ConformanceOrigin.start() }

    /// The shared origin, started on the first call.
    static func get() async throws -> ConformanceOrigin { try await shared.value }

    private let counts: RequestCounts
    private let application: LoopbackApplication

    private init(counts: RequestCounts, application: LoopbackApplication) {
        self.counts = counts
        self.application = application
    }

    /// `http://127.0.0.1:PORT`
    var base: String { application.base }

    /// The source URL of `path` on this origin (`/gen/200x100.png`), as text.
    func source(_ path: String) -> String { base + path }

    /// How many requests `path` got.
    func requests(_ path: String) -> Int { counts.count(path) }

    /// W×H, red rising from 0 at the left to 255 at the right, green from 0 at the top to 255 at
    /// the bottom, blue 96: every corner has a colour of its own, so turns and mirrors show.
    static func gradient(width: Int, height: Int, alphaLeftHalf: Bool = false) -> Image {
        Image(width: width, height: height, isOpaque: !alphaLeftHalf) { pixels, bytesPerRow in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * bytesPerRow + x * 4
                    let clear = alphaLeftHalf && x < width / 2
                    pixels[offset] = clear ? 0 : UInt8(x * 255 / max(width - 1, 1))
                    pixels[offset + 1] = clear ? 0 : UInt8(y * 255 / max(height - 1, 1))
                    pixels[offset + 2] = clear ? 0 : 96
                    pixels[offset + 3] = clear ? 0 : 255
                }
            }
        }
    }

    /// 300×200 in frames: white with borders of 10 (left), 20 (right), 10 (top) and 30 (bottom)
    /// pixels round a 270×160 area; within it a 10-pixel ring of grey 200, then a 10-pixel ring
    /// of grey 100, round a black 230×120 core.
    static let trimFrames: [UInt8] = {
        let image = Image(width: 300, height: 200, isOpaque: true) { pixels, bytesPerRow in
            for y in 0..<200 {
                for x in 0..<300 {
                    // The distance inward from the white border's inner edge, negative outside it.
                    let inward = min(x - 10, 279 - x, y - 10, 169 - y)
                    let grey: UInt8 = inward < 0 ? 255 : inward < 10 ? 200 : inward < 20 ? 100 : 0
                    let offset = y * bytesPerRow + x * 4
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) = (
                        grey, grey, grey, 255
                    )
                }
            }
        }
        return [UInt8](try! ImageEncoders.png(image))
    }()

    /// 200×200: the top 40 rows red, the bottom 60 rows blue, green between.
    static let trimBands: [UInt8] = {
        let image = Image(width: 200, height: 200, isOpaque: true) { pixels, bytesPerRow in
            for y in 0..<200 {
                for x in 0..<200 {
                    let offset = y * bytesPerRow + x * 4
                    let (red, green, blue): (UInt8, UInt8, UInt8) =
                        y < 40 ? (255, 0, 0) : y >= 140 ? (0, 0, 255) : (0, 255, 0)
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) = (
                        red, green, blue, 255
                    )
                }
            }
        }
        return [UInt8](try! ImageEncoders.png(image))
    }()

    /// 200×200 with alpha: the top 40 rows fully transparent, the bottom 30 rows opaque magenta,
    /// opaque green between.
    static let trimAlpha: [UInt8] = {
        let image = Image(width: 200, height: 200, isOpaque: false) { pixels, bytesPerRow in
            for y in 0..<200 {
                for x in 0..<200 {
                    let offset = y * bytesPerRow + x * 4
                    let pixel: (UInt8, UInt8, UInt8, UInt8) =
                        y < 40 ? (0, 0, 0, 0) : y >= 170 ? (255, 0, 255, 255) : (0, 255, 0, 255)
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) = pixel
                }
            }
        }
        return [UInt8](try! ImageEncoders.png(image))
    }()

    private static let made = Mutex<[String: [UInt8]]>([:])

    /// The bytes `/gen/{spec}` serves (made once per spec), or `nil` for a spec it does not know.
    static func generated(_ spec: String) -> [UInt8]? {
        if let bytes = made.withLock({ $0[spec] }) { return bytes }
        guard let match = spec.wholeMatch(of: /(\d{1,4})x(\d{1,4})(-alpha)?\.(png|jpg|webp|gif|avif)/),
            let width = Int(match.output.1), let height = Int(match.output.2), width > 0, height > 0
        else { return nil }
        let image = gradient(width: width, height: height, alphaLeftHalf: match.output.3 != nil)
        let data: Data
        do {
            switch match.output.4 {
            case "jpg": data = try ImageEncoders.jpeg(image, quality: 0.95)
            case "webp": data = try ImageEncoders.webp(image, lossless: true)
            case "avif": data = try ImageEncoders.avif(image, quality: 0.9)
            case "gif":
                data = try ImageEncoders.gif(
                    AnimatedImage(type: .gif, frames: [.init(image: image, duration: 0.1)], loopCount: 0, data: Data()))
            default: data = try ImageEncoders.png(image)
            }
        } catch { return nil }
        let bytes = [UInt8](data)
        made.withLock { $0[spec] = bytes }
        return bytes
    }

    /// A three-frame animated GIF of `width`×`height` (the gradient, then it mirrored, then
    /// grey), 0.1 s a frame, looping.
    static func animation(width: Int, height: Int) -> [UInt8]? {
        let first = gradient(width: width, height: height)
        let frames = [
            first, ConformanceOrigin.mirrored(first),
            Image(width: width, height: height, color: RGBA8(red: 128, green: 128, blue: 128)),
        ]
        let animation = AnimatedImage(
            type: .gif, frames: frames.map { .init(image: $0, duration: 0.1) }, loopCount: 0, data: Data())
        return (try? ImageEncoders.gif(animation)).map { [UInt8]($0) }
    }

    private static func mirrored(_ image: Image) -> Image {
        Image(width: image.width, height: image.height, isOpaque: true) { pixels, bytesPerRow in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let pixel = image.pixel(x: image.width - 1 - x, y: y)
                    let offset = y * bytesPerRow + x * 4
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) =
                        (pixel.red, pixel.green, pixel.blue, 255)
                }
            }
        }
    }

    private static let types = [
        "png": "image/png", "jpg": "image/jpeg", "webp": "image/webp", "gif": "image/gif",
        "avif": "image/avif",
    ]

    private static func start() async throws -> ConformanceOrigin {
        let counts = RequestCounts()
        let router = Router()
        router.add(middleware: CountingMiddleware(counts: counts))
        router.get("/gen/:spec") { _, context in generatedResponse(context.parameters.get("spec") ?? "") }
        router.get("/tag/:tag/:spec") { _, context in generatedResponse(context.parameters.get("spec") ?? "") }
        router.get("/anim/:spec") { _, context in
            let spec = context.parameters.get("spec") ?? ""
            guard let match = spec.wholeMatch(of: /(\d{1,4})x(\d{1,4})\.gif/), let width = Int(match.output.1),
                let height = Int(match.output.2), let bytes = animation(width: width, height: height)
            else { return Response(status: .notFound) }
            return body(bytes, "image/gif")
        }
        router.get("/fixture/:name") { _, context in
            let fixtures = ["trim-frames.png": trimFrames, "trim-bands.png": trimBands, "trim-alpha.png": trimAlpha]
            guard let bytes = fixtures[context.parameters.get("name") ?? ""] else { return Response(status: .notFound) }
            return body(bytes, "image/png")
        }
        router.get("/corpus/:folder/:name") { _, context in
            let path = "\(context.parameters.get("folder") ?? "")/\(context.parameters.get("name") ?? "")"
            guard !path.contains(".."), let bytes = ServerTestCorpus.bytes(path) else {
                return Response(status: .notFound)
            }
            return body(bytes, "application/octet-stream")
        }
        router.get("/missing") { _, _ in Response(status: .notFound) }
        router.get("/garbage") { _, _ in body(Array("no image in here, only words".utf8), "image/png") }
        let application = try await LoopbackApplication.start(router, label: "test.conformance-origin")
        return ConformanceOrigin(counts: counts, application: application)
    }

    private static func generatedResponse(_ spec: String) -> Response {
        guard let bytes = generated(spec), let type = types[String(spec.split(separator: ".").last ?? "")] else {
            return Response(status: .notFound)
        }
        return body(bytes, type)
    }

    private static func body(_ bytes: [UInt8], _ type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
