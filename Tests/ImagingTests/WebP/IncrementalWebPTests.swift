import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// WebP through `IncrementalImageDecoder`: rows as they arrive, the same final image as a one-shot decode.
@Suite("Incremental WebP")
struct IncrementalWebPTests {
    static let photo = CometTestSupport.TestImages.webp(width: 320, height: 240)

    /// Feeds `data` in `chunkSize` pieces, asking for a preview after each; the previews' rows
    /// that are not transparent, and the final image.
    static func feed(_ data: Data, chunkSize: Int, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> (
        previews: [Image], final: DecodedImage
    ) {
        let decoder = IncrementalImageDecoder(options: options)
        var previews: [Image] = []
        var offset = 0
        while offset < data.count {
            try decoder.append(data[offset..<min(data.count, offset + chunkSize)])
            if let preview = try decoder.makePreview() { previews.append(preview) }
            offset += chunkSize
        }
        return (previews, try decoder.finish())
    }

    @Test func theFinalImageEqualsAOneShotDecode() throws {
        let (_, final) = try Self.feed(Self.photo, chunkSize: 997)
        #expect(final.image == (try WebPDecoder().decode(Self.photo)).image)
        #expect(final.type == .webp && final.image.isOpaque)
    }

    @Test func previewsShowMoreRowsAsDataArrives() throws {
        let (previews, _) = try Self.feed(Self.photo, chunkSize: 600)
        #expect(previews.count >= 2)
        let opaqueRows = previews.map { preview in
            (0..<preview.height).filter { preview.pixel(x: 5, y: $0).alpha == 255 }.count
        }
        #expect(opaqueRows == opaqueRows.sorted() && opaqueRows.first! < 240)
    }

    @Test func aThumbnailDecodesIncrementallyAtTheScaledSize() throws {
        let options = ImageDecodingOptions(downsampling: .maxPixelSize(80))
        let (_, final) = try Self.feed(Self.photo, chunkSize: 500, options: options)
        #expect(final.image.width == 80 && final.image.height == 60)
        #expect(final.image == (try WebPDecoder().decode(Self.photo, options: options)).image)
    }

    @Test func aFileCutShortIsIncompleteAtFinish() throws {
        #expect(throws: ImageDecodingError.self) {
            _ = try Self.feed(Self.photo.prefix(Self.photo.count / 2), chunkSize: 300)
        }
    }

    @Test func anAnimatedFileIsDecodedWhenComplete() throws {
        let frames = [
            AnimatedImage.Frame(
                image: Image(width: 4, height: 4, color: RGBA8(red: 1, green: 2, blue: 3, alpha: 255)), duration: 0.1),
            AnimatedImage.Frame(
                image: Image(width: 4, height: 4, color: RGBA8(red: 9, green: 8, blue: 7, alpha: 255)), duration: 0.1),
        ]
        let data = try ImageEncoders.animatedWebP(
            AnimatedImage(type: .webp, frames: frames, loopCount: 0, data: Data()), lossless: true)
        let (previews, final) = try Self.feed(data, chunkSize: 16)
        #expect(previews.isEmpty && final.image.pixel(x: 0, y: 0) == RGBA8(red: 1, green: 2, blue: 3, alpha: 255))
    }
}
