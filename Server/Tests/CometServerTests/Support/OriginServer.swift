import Comet
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A real HTTP origin on 127.0.0.1 (Hummingbird, a free port) that counts the requests it gets
/// per path. Routes:
/// - `/img/photo.jpg` (640×480 JPEG), `/img/badge.png` (64×64 PNG with transparency),
///   `/img/tagged.jpg` (the JPEG with `ETag: "v1"`), `/img/p3.jpg` (a Display P3 photo of the
///   colour fixtures, ``ColorFixture``; 404 when they are not made), `/img/p3.heic` (a HEIC with
///   a Display P3 profile) and `/img/photo.jxl` (a lossless JPEG XL) of the HEIC and JPEG XL
///   fixtures (404 when not made)
/// - `/oriented/{N}.png`: 40×20 stored pixels whose `eXIf` chunk declares EXIF orientation
///   N (1…8), ``OrientedPNG``
/// - `/img/subject.png`: 400×200, flat grey but for a small many-coloured square near the right
///   edge (``subjectBox``), for content-aware crops
/// - `/made/{w}x{h}.{ext}` (and `-alpha`): a gradient of that size and format (``MadeSource``)
/// - `/copy/{name}/photo.jpg`: the 640×480 JPEG under a path of the test's own, so that its
///   request count is the test's alone on a shared origin
/// - `/slow/{ms}/photo.jpg`: the JPEG after a delay
/// - `/missing`: 404; `/error`: 500; `/garbage`: 200 with bytes that are no image
/// - `/big`: 200 with 2 MiB; `/huge.png`: a small PNG that declares 4000×4000 pixels
/// - `/redirect?to=URL`: 302 to URL; `/loop`: 302 to itself
/// - `/corpus/{folder}/{name}`: a file of the shared test corpus (``ServerTestCorpus``), 404 when
///   it is not there
final class OriginServer: Sendable {
    static let photo: [UInt8] = {
        let image = Image(width: 640, height: 480, isOpaque: true) { pixels, bytesPerRow in
            for y in 0..<480 {
                for x in 0..<640 {
                    let offset = y * bytesPerRow + x * 4
                    pixels[offset] = UInt8(x * 255 / 639)
                    pixels[offset + 1] = UInt8(y * 255 / 479)
                    pixels[offset + 2] = UInt8((x + y) % 256)
                    pixels[offset + 3] = 255
                }
            }
        }
        return [UInt8](try! ImageEncoders.jpeg(image, quality: 0.9))
    }()

    static let badge: [UInt8] = {
        let image = Image(width: 64, height: 64, isOpaque: false) { pixels, bytesPerRow in
            for y in 0..<64 {
                for x in 0..<64 {
                    let offset = y * bytesPerRow + x * 4
                    let inside = (x - 32) * (x - 32) + (y - 32) * (y - 32) < 28 * 28
                    pixels[offset] = 200
                    pixels[offset + 1] = 60
                    pixels[offset + 2] = 30
                    pixels[offset + 3] = inside ? 255 : 0
                }
            }
        }
        return [UInt8](try! ImageEncoders.png(image))
    }()

    /// Where ``subject`` has its detail: x 320..<384, y 68..<132.
    static let subjectBox = (x: 320, y: 68, width: 64, height: 64)

    /// Grey (128) everywhere but ``subjectBox``, a square of 8×8 cells in saturated colours.
    static let subject: [UInt8] = {
        let box = subjectBox
        let image = Image(width: 400, height: 200, isOpaque: true) { pixels, bytesPerRow in
            for y in 0..<200 {
                for x in 0..<400 {
                    let offset = y * bytesPerRow + x * 4
                    let inside = (box.x..<box.x + box.width).contains(x) && (box.y..<box.y + box.height).contains(y)
                    let cell = ((x - box.x) / 8 + (y - box.y) / 8) % 3
                    pixels[offset] = inside ? (cell == 0 ? 255 : 0) : 128
                    pixels[offset + 1] = inside ? (cell == 1 ? 255 : 0) : 128
                    pixels[offset + 2] = inside ? (cell == 2 ? 255 : 0) : 128
                    pixels[offset + 3] = 255
                }
            }
        }
        return [UInt8](try! ImageEncoders.png(image))
    }()

    /// A PNG whose header declares 4000×4000 (16 megapixels) of one colour: small on the wire.
    static let huge: [UInt8] = [UInt8](
        try! ImageEncoders.png(Image(width: 4000, height: 4000, color: RGBA8(red: 9, green: 9, blue: 9))))

    private let counts: RequestCounts
    private let application: LoopbackApplication
    /// `http://127.0.0.1:PORT`
    var base: String { application.base }

    private init(counts: RequestCounts, application: LoopbackApplication) {
        self.counts = counts
        self.application = application
    }

    /// How many requests `path` got (the path without the query).
    func requests(_ path: String) -> Int { counts.count(path) }

    /// Every request counted.
    var totalRequests: Int { counts.total }

    /// The URL of `path` on this origin.
    func url(_ path: String) -> URL { URL(string: base + path)! }

    /// Starts an origin and returns once it accepts connections.
    static func start() async throws -> OriginServer {
        let counts = RequestCounts()
        let router = Router()
        router.add(middleware: CountingMiddleware(counts: counts))
        router.get("/img/photo.jpg") { _, _ in image(photo, "image/jpeg") }
        router.get("/img/badge.png") { _, _ in image(badge, "image/png") }
        router.get("/img/p3.jpg") { _, _ in
            guard let bytes = ColorFixture.bytes("p3.jpg") else { return Response(status: .notFound) }
            return image(bytes, "image/jpeg")
        }
        router.get("/img/p3.heic") { _, _ in
            guard let bytes = ColorFixture.bytes("p3-icc.heic", in: ColorFixture.heicJXLFolder) else {
                return Response(status: .notFound)
            }
            return image(bytes, "image/heic")
        }
        router.get("/img/photo.jxl") { _, _ in
            guard let bytes = ColorFixture.bytes("lossless.jxl", in: ColorFixture.heicJXLFolder) else {
                return Response(status: .notFound)
            }
            return image(bytes, "image/jxl")
        }
        router.get("/img/tagged.jpg") { _, _ in
            var response = image(photo, "image/jpeg")
            response.headers[.eTag] = "\"v1\""
            return response
        }
        router.get("/img/subject.png") { _, _ in image(subject, "image/png") }
        router.get("/made/:name") { _, context in
            guard let made = MadeSource.make(context.parameters.get("name") ?? "") else {
                return Response(status: .notFound)
            }
            return image(made.bytes, made.type)
        }
        router.get("/oriented/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            guard name.hasSuffix(".png"), let orientation = UInt8(name.dropLast(".png".count)),
                (1...8).contains(orientation)
            else { return Response(status: .notFound) }
            return image(OrientedPNG.make(width: 40, height: 20, orientation: orientation), "image/png")
        }
        router.get("/corpus/:folder/:name") { _, context in
            let path = "\(context.parameters.get("folder") ?? "")/\(context.parameters.get("name") ?? "")"
            guard !path.contains(".."), let bytes = ServerTestCorpus.bytes(path) else {
                return Response(status: .notFound)
            }
            return image(bytes, "image/jpeg")
        }
        router.get("/copy/:name/photo.jpg") { _, _ in image(photo, "image/jpeg") }
        router.get("/slow/:ms/photo.jpg") { _, context in
            try await Task.sleep(for: .milliseconds(context.parameters.get("ms", as: Int.self) ?? 1000))
            return image(photo, "image/jpeg")
        }
        router.get("/missing") { _, _ in Response(status: .notFound) }
        router.get("/error") { _, _ in Response(status: .internalServerError) }
        router.get("/garbage") { _, _ in image(Array("this is not an image at all".utf8), "image/jpeg") }
        router.get("/big") { _, _ in image([UInt8](repeating: 0xAB, count: 2 << 20), "image/jpeg") }
        router.get("/huge.png") { _, _ in image(huge, "image/png") }
        router.get("/redirect") { request, _ in
            let target = request.uri.queryParameters.get("to") ?? "/missing"
            return Response(status: .found, headers: [.location: target])
        }
        router.get("/loop") { _, _ in Response(status: .found, headers: [.location: "/loop"]) }

        let application = try await LoopbackApplication.start(router, label: "test.origin")
        return OriginServer(counts: counts, application: application)
    }

    /// Stops the origin.
    func stop() async {
        await application.stop()
    }

    private static func image(_ bytes: [UInt8], _ type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
