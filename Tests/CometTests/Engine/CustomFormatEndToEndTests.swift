import Locking
import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// "CMT1": a tiny raw format (magic, big-endian UInt16 width and height, RGBA bytes) that a user
/// registers, to show the registry carries a new format through every stage of the pipeline.
enum RawFormat {
    static let type = AssetType("cmt1")
    static let magic = Array("CMT1".utf8)
    static let recognizes: @Sendable (Data) -> Bool = { $0.starts(with: magic) }

    struct Decoder: ImageDecoding {
        func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
            let bytes = [UInt8](data)
            guard bytes.count >= 8 else { throw .incomplete(RawFormat.type, reason: "no header") }
            let width = Int(bytes[4]) << 8 | Int(bytes[5]), height = Int(bytes[6]) << 8 | Int(bytes[7])
            guard width > 0, height > 0, bytes.count == 8 + width * height * 4 else {
                throw .corrupt(RawFormat.type, reason: "\(bytes.count) bytes for \(width)×\(height)")
            }
            let image = Image(width: width, height: height, bytes: Array(bytes[8...]))
            return DecodedImage(image: image, type: RawFormat.type, sourceWidth: width, sourceHeight: height)
        }
    }

    struct Encoder: ImageEncoding {
        var type: AssetType { RawFormat.type }
        func encode(_ image: Image) throws(ImageEncodingError) -> Data {
            var bytes =
                magic + [
                    UInt8(image.width >> 8), UInt8(image.width & 0xFF), UInt8(image.height >> 8),
                    UInt8(image.height & 0xFF),
                ]
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let pixel = image.pixel(x: x, y: y)
                    bytes += [pixel.red, pixel.green, pixel.blue, pixel.alpha]
                }
            }
            return Data(bytes)
        }
    }

    /// A `side`×`side` file of one colour.
    static func file(side: Int, color: RGBA8) -> Data {
        try! Encoder().encode(Image(width: side, height: side, color: color))
    }
}

@Suite("A registered format end to end", .timeLimit(.minutes(10)))
struct CustomFormatEndToEndTests {
    static let red = RGBA8(red: 200, green: 10, blue: 10)

    func makePipeline(dataCache: DataCache) -> ImagePipeline {
        makeRealPipeline {
            $0.decoders.register(RawFormat.type, decoder: RawFormat.Decoder(), recognizedBy: RawFormat.recognizes)
            $0.dataCache = dataCache
            $0.dataCachePolicy = .storeAll
            $0.makeImageEncoder = { _ in RawFormat.Encoder() }
        }.0
    }

    @Test func loadsDecodesProcessesCachesAndStreamsARegisteredFormat() async throws {
        let server = try await TestServer.start()
        server.serve(RawFormat.file(side: 8, color: Self.red), at: "tile.cmt1")
        let dataCache = temporaryDataCache()
        let pipeline = makePipeline(dataCache: dataCache)
        let request = ImageRequest(url: server.imageURL("tile.cmt1"), processors: [.resize(width: 4)])

        // Through an ImageStream.
        let received = Collected<ImageResponse>()
        let cancellable = pipeline.imageStream(with: request).sink(
            receiveCompletion: { _ in received.finish() },
            receiveValue: { received.append($0) })
        #expect(await eventually { received.isDone })
        _ = cancellable
        let image = try #require(received.all.last?.image)
        #expect(image.width == 4 && image.height == 4)
        #expect(image.pixel(x: 2, y: 2) == Self.red)

        // Memory cache: the processed image under the request's key.
        #expect(pipeline.cache[request]?.image.width == 4)

        // Disk cache: the original bytes, and the processed result written by the registered
        // encoder (encoded on a worker after delivery, so it lands a moment later).
        #expect(dataCache.cachedData(for: request.imageID!)?.starts(with: RawFormat.magic) == true)
        #expect(await eventually { dataCache.cachedData(for: request.key.diskKey) != nil })
        dataCache.flush()
        let encoded = try #require(dataCache.cachedData(for: request.key.diskKey))
        #expect(try RawFormat.Decoder().decode(encoded).image.width == 4)

        // A fresh pipeline over the same disk cache decodes the encoded result: no new download.
        let fresh = makePipeline(dataCache: DataCache(path: dataCache.path))
        let response = try await fresh.imageTask(with: request).response
        #expect(response.cacheType == .disk)
        #expect(response.image.pixel(x: 0, y: 0) == Self.red)
        #expect(server.requestCount(for: "/images/tile.cmt1") == 1)
    }

    @Test func aRegisteredFormatAlsoLoadsWithProgressiveDecodingOn() async throws {
        let server = try await TestServer.start()
        server.serve(RawFormat.file(side: 6, color: Self.red), at: "p.cmt1")
        let pipeline = makeRealPipeline {
            $0.decoders.register(RawFormat.type, decoder: RawFormat.Decoder(), recognizedBy: RawFormat.recognizes)
            $0.isProgressiveDecodingEnabled = true
        }.0
        let image = try await pipeline.image(for: server.imageURL("p.cmt1"))
        #expect(image.width == 6 && image.pixel(x: 5, y: 5) == Self.red)
    }

    @Test func anUnregisteredFormatFailsAsUnrecognised() async throws {
        let server = try await TestServer.start()
        server.serve(RawFormat.file(side: 2, color: Self.red), at: "x.cmt1")
        let pipeline = makeRealPipeline().0
        do {
            _ = try await pipeline.image(for: server.imageURL("x.cmt1"))
            Issue.record("an unregistered format must not decode")
        } catch let error as ImagePipeline.Error {
            #expect(error.isDecodingFailure)
        }
    }
}
