import Comet
import CometServer
import Foundation
import Testing

/// imgproxy's size options through the server, on the origin's 640×480 photo: `s`, `w`, `h`,
/// `rt` and `rs`'s types and extension, `mw`/`mh`, imgproxy's `crop`, and `skp`/`raw`. One case
/// at a time: the shared server's queue (64) is the parallel suites' to share.
@Suite("Size options, crop and skipped processing through the server", .serialized, .timeLimit(.minutes(10)))
struct SizeOptionTests {
    let client = HTTPClient()

    @Test(arguments: [
        ("s:100:100", 100, 75), ("w:100", 100, 75), ("h:60", 80, 60), ("rt:fill/s:100:100", 100, 100),
        ("rt:force/w:50/h:120", 50, 120), ("rs:fill-down:1000:500", 640, 320), ("rs:fill-down:100:100", 100, 100),
        ("rs:auto:100:50", 100, 50), ("rs:auto:50:100", 50, 38), ("rs:fit:0:100/mw:300", 300, 100),
        ("w:200/mh:200", 200, 200), ("rs:fill:100:100/mw:200", 100, 100), ("rs:fit:100:100:0:1", 100, 100),
        ("s:100:100:0:1:no", 100, 100), ("crop:0.5:0:we", 320, 480), ("crop_rect:0:0:320:480", 320, 480),
    ])
    func outputSize(_ options: String, _ width: Int, _ height: Int) async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(server.url(options + "/f:png", origin.url("/img/photo.jpg")))
        #expect(answer.status == 200, "\(options): \(String(decoding: answer.body, as: UTF8.self))")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        #expect(image.width == width && image.height == height, "\(options) made \(image.width)×\(image.height)")
    }

    @Test(arguments: [
        ("s:100:100/rt:fill/el:1", "rs:fill:100:100:1"), ("rs:fill-down:1000:500:1", "rs:fill:1000:500/el:1"),
        ("size:300:0", "width:300"), ("rs:fit:100:100:0:1:so", "rs:fit:100:100/ex:1:so"),
        ("crop:0.5:0:we", "c:0.5:0:we"),
    ])
    func spellingsOfOneRequestShareOneResult(_ one: String, _ other: String) async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let first = try await client.get(server.url(one + "/f:png", origin.url("/img/photo.jpg")))
        let second = try await client.get(server.url(other + "/f:png", origin.url("/img/photo.jpg")))
        #expect(first.status == 200 && second.status == 200)
        #expect(first.header("ETag") != nil && first.header("ETag") == second.header("ETag"), "\(one) / \(other)")
    }

    @Test(arguments: ["skp:jpg", "skip_processing:png:jpeg", "raw:1", "skp:jpg/f:jpeg"])
    func aSkippedFormatIsSentAsItIs(_ options: String) async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(server.url(options + "/rs:fit:100:100", origin.url("/img/photo.jpg")))
        #expect(answer.status == 200)
        #expect(answer.body == OriginServer.photo)
        #expect(answer.header("Content-Type") == "image/jpeg")
    }

    /// As imgproxy: a URL asking for another format than the source's is processed into it.
    @Test func aSkippedFormatAskedForInAnotherFormatIsProcessed() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(server.url("skp:jpg/rs:fit:100:100/f:png", origin.url("/img/photo.jpg")))
        #expect(answer.status == 200 && Magic.isPNG(answer.body))
    }

    @Test func aFormatNotSkippedIsProcessedFromTheBytesFetchedOnce() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let path = "/copy/skip-other/photo.jpg"
        let answer = try await client.get(server.url("skp:png:webp/rs:fit:100:100/f:png", origin.url(path)))
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/png")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        #expect(image.width == 100 && image.height == 75)
        #expect(origin.requests(path) == 1)
    }

    @Test(arguments: [
        ("s:x", "s"), ("w:-1", "w"), ("h:5000", "h"), ("rt:grow", "rt"), ("rs:fit:10:10:0:2", "rs"),
        ("mw:-1", "mw"), ("mh:x", "mh"), ("skp:bmp", "skp"), ("raw:2", "raw"), ("sm:0", "sm"), ("kcr:1", "kcr"),
        ("crop:0:0:10:10", "c"), ("crop_rect:0:0:0:10", "cr"),
    ])
    func aBadValueIsA400NamingTheOptionBeforeAnyFetch(_ options: String, _ name: String) async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let path = "/never/size-\(options.utf8.map { String($0) }.joined()).jpg"
        let answer = try await client.get(server.url(options, origin.url(path)))
        #expect(answer.status == 400 && answer.errorCode == "bad_options")
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: [String: Any]]
        let message = try #require(object?["error"]?["message"] as? String)
        #expect(message.hasPrefix(name), "\(options): \(message)")
        #expect(origin.requests(path) == 0)
    }
}

/// `eth` on a corpus photo whose EXIF carries a thumbnail: Landscape_9.jpg, 480×369, upright,
/// with a 256×197 JPEG thumbnail.
@Suite("The embedded EXIF thumbnail through the server", .serialized, .enabled(if: ServerTestCorpus.isAvailable))
struct EmbeddedThumbnailTests {
    let client = HTTPClient()
    let path = "/corpus/sharp-photos/Landscape_9.jpg"

    /// The photo's embedded thumbnail, decoded: the JPEG after its EXIF header.
    private func embeddedThumbnail() throws -> Image {
        let bytes = try #require(ServerTestCorpus.bytes("sharp-photos/Landscape_9.jpg"))
        let exif = try #require(bytes.firstRange(of: Array("Exif".utf8))?.lowerBound)
        let start = try #require(bytes[exif...].firstRange(of: [0xFF, 0xD8])?.lowerBound)
        return try ImageDecoders.decode(Data(bytes[start...])).image
    }

    private func result(_ options: String) async throws -> Image {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(server.url(options + "/f:png", origin.url(path)))
        #expect(answer.status == 200, "\(options): \(String(decoding: answer.body, as: UTF8.self))")
        return try ImageDecoders.decode(Data(answer.body)).image
    }

    @Test func aThumbnailAsLargeAsTheResizeIsUsedInsteadOfTheDecode() async throws {
        let thumbnail = try embeddedThumbnail()
        #expect(thumbnail.width == 256 && thumbnail.height == 197)
        let enforced = try await result("eth:1/rs:fit:256:197")
        let decoded = try await result("rs:fit:256:197")
        #expect(enforced.width == 256 && enforced.height == 197 && decoded.width == 256 && decoded.height == 197)
        #expect(enforced.pixel(x: 100, y: 100) == thumbnail.pixel(x: 100, y: 100))
        #expect(enforced.packedBytes == thumbnail.packedBytes)
        #expect(decoded.packedBytes != thumbnail.packedBytes)
    }

    @Test func aThumbnailSmallerThanTheResizeIsNotUsed() async throws {
        let enforced = try await result("eth:1/rs:fit:300:0")
        let decoded = try await result("rs:fit:300:0")
        #expect(enforced.width == 300 && enforced.height == 231)
        #expect(enforced.packedBytes == decoded.packedBytes)
    }
}
