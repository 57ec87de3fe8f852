import CometServer
import Foundation
import Testing

/// `/info`'s options and request checks, without HTTP.
@Suite("Info requests")
struct InfoRequestTests {
    private let source = URL(string: "https://images.example.com/cat.jpg")!

    private func request(_ options: String, signer: URLSigner? = RunningServer.signer) throws(ServiceError)
        -> InfoRequest
    {
        let path = ThumbnailPath.make(options: options, source: source, signer: signer)
        var configuration = ServerConfiguration()
        configuration.signer = RunningServer.signer
        return try InfoRequest(path: path, configuration: configuration)
    }

    @Test func optionsSpellCanonically() throws {
        #expect(try InfoOptions.parse(ThumbnailOptions.testSegments("-")).canonical == "-")
        #expect(try InfoOptions.parse(ThumbnailOptions.testSegments("bh:4:3")).canonical == "-")
        #expect(try InfoOptions.parse(ThumbnailOptions.testSegments("blurhash:9:1")).canonical == "bh:9:1")
        #expect(try InfoOptions.parse(ThumbnailOptions.testSegments("bh:0")).canonical == "bh:0")
        #expect(try InfoOptions.parse(ThumbnailOptions.testSegments("bh:0")).blurHashComponents == nil)
    }

    @Test(arguments: [
        "bh", "bh:0:3", "bh:4:10", "bh:04:3", "bh:4:3:1", "bh:-1:3", "q:80", ",", "bh:x:y",
    ])
    func badOptionsAre400NamingTheOption(_ segment: String) {
        #expect(throws: ServiceError.self, "\(segment)") {
            try InfoOptions.parse(ThumbnailOptions.testSegments(segment))
        }
        do {
            _ = try InfoOptions.parse(ThumbnailOptions.testSegments(segment))
        } catch {
            #expect(error.status == 400 && error.code == "bad_options")
            let name = segment.split(separator: ":").first.map(String.init) ?? ""
            if name != "," { #expect(error.message.contains(name), "\(error.message)") }
        }
    }

    @Test func equalOptionsShareAKeyThatNoThumbnailHas() throws {
        let plain = try request("")
        #expect(try request("bh:4:3").storeKey == plain.storeKey)
        #expect(try request("bh:3:3").storeKey != plain.storeKey)
        #expect(plain.storeKey.hasPrefix("comet:v1:") && plain.key.utf8.count == 64)
        var configuration = ServerConfiguration()
        configuration.signer = RunningServer.signer
        let thumbnail = try ThumbnailRequest(
            path: ThumbnailPath.make(options: "", source: source, signer: RunningServer.signer), accept: nil,
            configuration: configuration)
        #expect(thumbnail.storeKey != plain.storeKey)
    }

    @Test func theSignatureIsCheckedAsAThumbnailsIs() {
        #expect(throws: ServiceError.badSignature) {
            try request("", signer: try URLSigner(hexKey: "01", hexSalt: ""))
        }
        #expect(throws: ServiceError.badSignature) { try request("", signer: nil) }
    }
}
