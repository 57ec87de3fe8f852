import Comet
import CometTestSupport
import Foundation
import Hummingbird
import NIOCore

/// A real HTTP origin on 127.0.0.1 for the animation and `/info` tests, started once and shared
/// (as ``SharedOriginAndServer``'s), counting its requests per path. Routes:
/// - `/gif/{name}`: a file of the corpus's `gif/image-gif-samples` (404 when missing)
/// - `/moon.webp`: `moon_impact.gif`'s 14 frames as a lossless animated WebP (``moonWebP``)
/// - `/crafted/{name}`: ``CraftedAnimation``'s files, by name (``crafted``)
/// - `/p3.png`: a 48×32 PNG carrying the Display P3 profile
/// - `/copy/{anything}/{name}`: `/gif/{name}` under a path of the test's own, for counts
final class AnimationOrigin: Sendable {
    /// The corpus's GIF samples.
    static let gifFolder = TestCorpus.url("gif/image-gif-samples")

    /// Whether the GIF samples are there; CI (`COMET_REQUIRE_CORPUS=1`) requires them.
    static var isAvailable: Bool { ServerTestCorpus.hasSets(["gif"]) }

    /// A GIF sample's bytes.
    static func gif(_ name: String) -> [UInt8]? {
        (try? Data(contentsOf: gifFolder.appendingPathComponent(name))).map { [UInt8]($0) }
    }

    /// `moon_impact.gif` (116×100, 14 frames of 0.15 s, looping) as a lossless animated WebP (libwebp
    /// folds the repeated frames, so it holds fewer, some longer).
    static let moonWebP: [UInt8]? = {
        guard let bytes = gif("moon_impact.gif"),
            let animation = try? ImageDecoders.decode(Data(bytes), options: .init(decodesAnimation: true)).animation
        else { return nil }
        return (try? ImageEncoders.animatedWebP(animation, lossless: true)).map { [UInt8]($0) }
    }()

    /// The crafted files, by name: `many-frames.gif` (300 valid 1×1 frames on a 2×2 screen),
    /// `huge-canvas.gif` (9 undecodable frames on a 2000×2000 screen, cut short),
    /// `huge-canvas.webp` (9 frames without image data on a 2000×2000 canvas, cut short).
    static let crafted: [String: [UInt8]] = [
        "many-frames.gif": CraftedAnimation.gif(width: 2, height: 2, frames: 300),
        "huge-canvas.gif": CraftedAnimation.gif(
            width: 2000, height: 2000, frames: 9, frameData: CraftedAnimation.garbagePixels, truncated: true),
        "huge-canvas.webp": CraftedAnimation.webp(width: 2000, height: 2000, frames: 9),
    ]

    /// 48×32 of one colour, tagged with the Display P3 profile.
    static let p3PNG: [UInt8] = {
        let image = Image(width: 48, height: 32, color: RGBA8(red: 30, green: 160, blue: 90))
        return [UInt8](try! ImageEncoders.png(image.withColorProfile(.displayP3)))
    }()

    private static let shared = Task { try await AnimationOrigin.start() }

    /// The shared origin, started on the first call.
    static func get() async throws -> AnimationOrigin { try await shared.value }

    private let counts: RequestCounts
    private let application: LoopbackApplication

    private init(counts: RequestCounts, application: LoopbackApplication) {
        self.counts = counts
        self.application = application
    }

    /// How many requests `path` got.
    func requests(_ path: String) -> Int { counts.count(path) }

    /// The URL of `path` on this origin.
    func url(_ path: String) -> URL { URL(string: application.base + path)! }

    private static func start() async throws -> AnimationOrigin {
        let counts = RequestCounts()
        let router = Router()
        router.add(middleware: CountingMiddleware(counts: counts))
        router.get("/gif/:name") { _, context in
            guard let bytes = gif(context.parameters.get("name") ?? "") else { return Response(status: .notFound) }
            return body(bytes, "image/gif")
        }
        router.get("/copy/:tag/:name") { _, context in
            guard let bytes = gif(context.parameters.get("name") ?? "") else { return Response(status: .notFound) }
            return body(bytes, "image/gif")
        }
        router.get("/moon.webp") { _, _ in
            guard let moonWebP else { return Response(status: .notFound) }
            return body(moonWebP, "image/webp")
        }
        router.get("/crafted/:name") { _, context in
            guard let bytes = crafted[context.parameters.get("name") ?? ""] else { return Response(status: .notFound) }
            return body(bytes, "application/octet-stream")
        }
        router.get("/p3.png") { _, _ in body(p3PNG, "image/png") }
        let application = try await LoopbackApplication.start(router, label: "test.animation-origin")
        return AnimationOrigin(counts: counts, application: application)
    }

    private static func body(_ bytes: [UInt8], _ type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
