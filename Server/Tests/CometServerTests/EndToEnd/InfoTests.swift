import Comet
import CometServer
import Foundation
import Testing

/// `/info/…` through the real server: the JSON it answers about real sources (the tests' photo,
/// corpus GIFs, an animated WebP, a PNG with a profile), checked against what the test reads from
/// the same bytes; the signature, the options' errors and the caching as for results.
@Suite("Source info through the server", .timeLimit(.minutes(10)), .enabled(if: AnimationOrigin.isAvailable))
struct InfoTests {
    let client = HTTPClient()

    /// The `/info` URL of `source` with `options`, signed with the tests' key (or `signer`).
    private func url(
        _ server: RunningServer, _ options: String, _ source: URL, signer: URLSigner? = RunningServer.signer
    ) -> URL {
        URL(string: server.base + "/info" + ThumbnailPath.make(options: options, source: source, signer: signer))!
    }

    /// The answer's JSON object.
    private func object(_ answer: HTTPClient.Answer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
    }

    @Test func describesAJPEGAndHashesIt() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(url(server, "-", origin.url("/img/photo.jpg")))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("Comet-Color") == nil)
        let info = try object(answer)
        #expect(info["format"] as? String == "jpeg")
        #expect(info["width"] as? Int == 640 && info["height"] as? Int == 480)
        #expect(info["orientation"] as? Int == 1)
        #expect(info["frames"] as? Int == 1)
        #expect(info["bytes"] as? Int == OriginServer.photo.count)
        #expect(info["color_profile"] is NSNull)
        let hash = try #require(info["blurhash"] as? String)
        #expect(hash.utf8.count == 6 + 2 * 11, "size flag, maximum, 4 digits of DC, 2 per AC component")
        #expect(hash.hasPrefix("L"), "4 × 3 components: (4 - 1) + (3 - 1) × 9 = 21, base 83 \"L\"")
        // The average colour (digits 3 to 6) is within a few levels of the photo's own.
        let photo = try ImageDecoders.decode(Data(OriginServer.photo)).image
        let average = Self.averageSRGB(photo)
        let digits = Array(hash.utf8)[2..<6].reduce(0) { $0 * 83 + Self.base83.firstIndex(of: $1)! }
        let decoded = [digits >> 16, digits >> 8 & 0xFF, digits & 0xFF]
        for channel in 0..<3 { #expect(abs(decoded[channel] - average[channel]) <= 6, "channel \(channel)") }
    }

    @Test func countsTheFramesOfAnimatedGIFsAndWebPs() async throws {
        let (_, server) = try await SharedOriginAndServer.get()
        let origin = try await AnimationOrigin.get()
        let gif = try object(try await client.get(url(server, "-", origin.url("/gif/moon_impact.gif"))))
        #expect(gif["format"] as? String == "gif")
        #expect(gif["frames"] as? Int == 14)
        #expect(gif["width"] as? Int == 116 && gif["height"] as? Int == 100)
        #expect(gif["bytes"] as? Int == AnimationOrigin.gif("moon_impact.gif")?.count)
        let webp = try object(try await client.get(url(server, "-", origin.url("/moon.webp"))))
        #expect(webp["format"] as? String == "webp")
        let frames = try ImageDecoders.decode(
            Data(try #require(AnimationOrigin.moonWebP)), options: .init(decodesAnimation: true)
        ).animation?.frames.count
        #expect(webp["frames"] as? Int == frames)
        #expect((frames ?? 0) > 1)
        #expect(webp["width"] as? Int == 116 && webp["height"] as? Int == 100)
        let still = try object(try await client.get(url(server, "-", origin.url("/gif/interlaced.gif"))))
        #expect(still["frames"] as? Int == 1)
    }

    @Test func namesTheColourProfile() async throws {
        let (_, server) = try await SharedOriginAndServer.get()
        let origin = try await AnimationOrigin.get()
        let decoded = try ImageDecoders.decode(Data(AnimationOrigin.p3PNG))
        guard case .converted(let name) = decoded.colorHandling else {
            Issue.record("the fixture's profile was not read: \(decoded.colorHandling)")
            return
        }
        let info = try object(try await client.get(url(server, "-", origin.url("/p3.png"))))
        #expect(info["color_profile"] as? String == name)
        #expect(info["format"] as? String == "png")
    }

    @Test func bhChoosesTheComponentsAndBh0LeavesTheHashOut() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let nine = try object(try await client.get(url(server, "bh:9:2", origin.url("/img/photo.jpg"))))
        let hash = try #require(nine["blurhash"] as? String)
        #expect(hash.utf8.count == 6 + 2 * 17)
        #expect(Self.base83.firstIndex(of: hash.utf8.first!) == 8 + 1 * 9)
        let none = try object(try await client.get(url(server, "blurhash:0", origin.url("/img/photo.jpg"))))
        #expect(none["blurhash"] is NSNull)
    }

    @Test func badSignaturesAndBadOptionsFetchNothing() async throws {
        let (_, server) = try await SharedOriginAndServer.get()
        let origin = try await AnimationOrigin.get()
        let source = origin.url("/copy/info-refusals/moon_impact.gif")
        let forged = try await client.get(url(server, "-", source, signer: try URLSigner(hexKey: "00ff", hexSalt: "")))
        #expect(forged.status == 403)
        #expect(forged.errorCode == "bad_signature")
        let unsigned = try await client.get(url(server, "-", source, signer: nil))
        #expect(unsigned.status == 403)
        for (options, name) in [("bh:10:3", "bh"), ("bh:4", "bh"), ("blurhash:a:b", "blurhash"), ("rs:fit:9:9", "rs")] {
            let answer = try await client.get(url(server, options, source))
            #expect(answer.status == 400, "\(options)")
            #expect(answer.errorCode == "bad_options")
            let message = String(decoding: answer.body, as: UTF8.self)
            #expect(message.contains(name), "\(options): \(message)")
        }
        let extended = URL(
            string: server.base + "/info"
                + ThumbnailPath.make(options: "", source: source, fileExtension: "png", signer: RunningServer.signer))!
        let withExtension = try await client.get(extended)
        #expect(withExtension.status == 400 && withExtension.errorCode == "bad_url")
        #expect(origin.requests("/copy/info-refusals/moon_impact.gif") == 0)
    }

    @Test func isStoredAndRevalidatedAsResultsAre() async throws {
        let (_, server) = try await SharedOriginAndServer.get()
        let origin = try await AnimationOrigin.get()
        let path = "/copy/info-caching/anim-gr.gif"
        let infoURL = url(server, "bh:3:3", origin.url(path))
        let first = try await client.get(infoURL)
        #expect(first.status == 200)
        #expect(first.header("X-Cache") == "MISS")
        let etag = try #require(first.header("ETag"))
        let second = try await client.get(infoURL)
        #expect(second.header("X-Cache") == "HIT")
        #expect(second.body == first.body && second.header("ETag") == etag)
        let revalidated = try await client.get(infoURL, headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304)
        let head = try await client.get(infoURL, method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == String(first.body.count))
        #expect(origin.requests(path) == 1)
        // The thumbnail of the same source is another result, with another ETag.
        let thumbnail = try await client.get(server.url("", origin.url(path), fileExtension: "png"))
        #expect(thumbnail.status == 200 && thumbnail.header("ETag") != etag)
    }

    @Test func anUndecodableSourceIs422() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(url(server, "-", origin.url("/garbage")))
        #expect(answer.status == 422)
        #expect(answer.errorCode == "undecodable")
    }

    private static let base83 = Array(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    /// The image's mean colour, averaged in linear light and written back as sRGB (BlurHash's
    /// DC component), computed here from the definitions.
    private static func averageSRGB(_ image: Image) -> [Int] {
        var sums = [0.0, 0.0, 0.0]
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image.pixel(x: x, y: y)
                for (channel, value) in [pixel.red, pixel.green, pixel.blue].enumerated() {
                    let v = Double(value) / 255
                    sums[channel] += v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
                }
            }
        }
        return sums.map { sum in
            let v = sum / Double(image.width * image.height)
            let encoded = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
            return Int((encoded * 255).rounded())
        }
    }
}
