import Comet
@testable import CometServer
import Foundation
import Testing

/// imgproxy's security options (`msr`, `msfs`, `maf`, `mafr`, `mrd`): read, spelled, refused
/// unless the server allows them, and each lowering one of the server's limits, never raising it.
@Suite("The security options")
struct SecurityOptionGrammarTests {
    private func parse(_ segments: String) throws -> ThumbnailOptions {
        try ThumbnailOptions.parse(segments, maximumDimension: 4096)
    }

    private func request(
        _ options: String, allowing: Bool = true, configure: (inout ServerConfiguration) -> Void = { _ in }
    )
        throws(ServiceError) -> ThumbnailRequest
    {
        var configuration = ServerConfiguration()
        configuration.allowsSecurityOptions = allowing
        configure(&configuration)
        let source = Base64URL.encode(Array("http://example.com/a.jpg".utf8))
        return try ThumbnailRequest(path: "/unsigned/\(options)/\(source)", accept: nil, configuration: configuration)
    }

    @Test(arguments: [
        ("max_src_resolution:12.50", "msr:12.5"), ("msfs:1048576", "msfs:1048576"), ("maf:10", "maf:10"),
        ("mafr:0.5", "mafr:0.5"), ("mrd:1000", "mrd:1000"), ("msfs:0", ""), ("mafr:0", ""), ("mrd:0", ""),
    ])
    func aSecurityOptionHasOneSpelling(_ segment: String, _ canonical: String) throws {
        #expect(try parse(segment).canonical == canonical)
    }

    @Test(arguments: [
        ("msr:-1", "msr"), ("msr:x", "msr"), ("msr:6000", "msr"), ("msfs:1.5", "msfs"), ("msfs:-1", "msfs"),
        ("maf:0", "maf"), ("maf:x", "maf"), ("mafr:-0.5", "mafr"), ("mrd:-3", "mrd"), ("mrd:10:10", "mrd"),
    ])
    func aBadValueIsRefusedNamingItsOption(_ segment: String, _ name: String) {
        let error = #expect(throws: ServiceError.self) { try parse(segment) }
        #expect(error?.status == 400 && error?.message.hasPrefix(name) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: ["msr:1", "msfs:1000", "maf:2", "mafr:1", "mrd:100"])
    func aServerThatDoesNotAllowThemRefusesEachWith403(_ option: String) {
        let error = #expect(throws: ServiceError.self) { try request(option, allowing: false) }
        #expect(error == .securityOptionsRefused)
    }

    @Test func aSecurityOptionIsPartOfTheResultsKey() throws {
        #expect(try request("rs:fit:10:10/msr:1").key != request("rs:fit:10:10").key)
    }

    @Test func aSecurityOptionLowersTheServersLimit() throws {
        let limits = try request("msr:1/msfs:1000/maf:2/mafr:0.25").sourceLimits
        #expect(limits.maximumPixels == 1_000_000 && limits.maximumBytes == 1000)
        #expect(limits.maximumAnimationFrames == 2 && limits.maximumAnimationFramePixels == 250_000)
        #expect(limits.checksBeforeDecoding)
    }

    @Test func aSecurityOptionNeverRaisesTheServersLimit() throws {
        let limits = try request("msr:500/msfs:999999999/maf:9999") { configuration in
            (configuration.maximumSourcePixels, configuration.maximumAnimationFrames) = (2_000_000, 16)
            configuration.fetchLimits.maximumBytes = 5000
        }.sourceLimits
        #expect(limits.maximumPixels == 2_000_000 && limits.maximumBytes == 5000 && limits.maximumAnimationFrames == 16)
        #expect(!limits.checksBeforeDecoding)
    }

    @Test func oneFrameAllowedKeepsNoAnimation() throws {
        #expect(try request("f:webp/maf:1").keepsAnimation == false)
        #expect(try request("f:webp/maf:2").keepsAnimation)
    }

    @Test func theResultsLongestSideIsFittedLast() throws {
        let plan = ThumbnailPlan(try parse("mrd:100/rs:fit:300:300/pd:10"))
        #expect(
            plan.processors.last?.identifier
                == ImageProcessors.Resize(size: Size(width: 100, height: 100), contentMode: .aspectFit).identifier)
    }

    /// A 300×200 image in each format Comet encodes stills in.
    private static let encoded: [(String, Data)] = {
        let image = Image(width: 300, height: 200, color: RGBA8(red: 1, green: 2, blue: 3))
        return [
            ("png", try! ImageEncoders.png(image)), ("jpeg", try! ImageEncoders.jpeg(image)),
            ("webp", try! ImageEncoders.webp(image)), ("avif", try! ImageEncoders.avif(image)),
        ]
    }()

    @Test(arguments: ["png", "jpeg", "webp", "avif"])
    func theDeclaredSizeIsRead(_ format: String) throws {
        let data = try #require(Self.encoded.first { $0.0 == format }?.1)
        #expect(SourceLimits.declaredSize(of: data).map { [$0.width, $0.height] } == [300, 200])
    }

    @Test func theDeclaredSizeNeedsTheHeaderAlone() throws {
        // Cut after IHDR and the next chunk's header: no pixels could be decoded from it.
        let data = try #require(Self.encoded.first { $0.0 == "png" }?.1).prefix(33 + 8)
        #expect(SourceLimits.declaredSize(of: Data(data)).map { [$0.width, $0.height] } == [300, 200])
    }
}
