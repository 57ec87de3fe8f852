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
        let parts = path.split(separator: "/").map(String.init)
        var configuration = ServerConfiguration()
        configuration.signer = RunningServer.signer
        return try InfoRequest(signature: parts[0], options: parts[1], source: parts[2], configuration: configuration)
    }

    @Test func optionsSpellCanonically() throws {
        #expect(try InfoOptions.parse("-").canonical == "-")
        #expect(try InfoOptions.parse("bh:4:3").canonical == "-")
        #expect(try InfoOptions.parse("blurhash:9:1").canonical == "bh:9:1")
        #expect(try InfoOptions.parse("bh:0").canonical == "bh:0")
        #expect(try InfoOptions.parse("bh:0").blurHashComponents == nil)
    }

    @Test(arguments: [
        "bh", "bh:0:3", "bh:4:10", "bh:04:3", "bh:4:3:1", "bh:-1:3", "bh:4:3,bh:4:3", "q:80", ",", "bh:x:y",
    ])
    func badOptionsAre400NamingTheOption(_ segment: String) {
        #expect(throws: ServiceError.self, "\(segment)") { try InfoOptions.parse(segment) }
        do {
            _ = try InfoOptions.parse(segment)
        } catch {
            #expect(error.status == 400 && error.code == "bad_options")
            let name = segment.split(separator: ":").first.map(String.init) ?? ""
            if name != "," { #expect(error.message.contains(name), "\(error.message)") }
        }
    }

    @Test func equalOptionsShareAKeyThatNoThumbnailHas() throws {
        let plain = try request("-")
        #expect(try request("bh:4:3").storeKey == plain.storeKey)
        #expect(try request("bh:3:3").storeKey != plain.storeKey)
        #expect(plain.storeKey.hasPrefix("comet:v1:") && plain.key.utf8.count == 64)
        var configuration = ServerConfiguration()
        configuration.signer = RunningServer.signer
        let parts = ThumbnailPath.make(options: "-", source: source, signer: RunningServer.signer).split(separator: "/")
        let thumbnail = try ThumbnailRequest(
            signature: String(parts[0]), options: String(parts[1]), source: String(parts[2]), accept: nil,
            configuration: configuration)
        #expect(thumbnail.storeKey != plain.storeKey)
    }

    @Test func theSignatureIsCheckedAsAThumbnailsIs() {
        #expect(throws: ServiceError.badSignature) {
            try request("-", signer: try URLSigner(hexKey: "01", hexSalt: ""))
        }
        #expect(throws: ServiceError.badSignature) { try request("-", signer: nil) }
    }
}
