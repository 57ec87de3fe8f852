import Foundation
import Testing
@testable import Imaging

@Suite("AVIF encoding")
struct AVIFEncodingTests {
    @Test func roundTripIsAbove30dB() throws {
        let image = WebPEncodingTests.photo(width: 96, height: 64, alpha: false)
        let data = try image.avifData()
        #expect(AssetType(data) == .avif)
        let decoded = try AVIFDecoder().decode(data).image
        #expect(decoded.isOpaque && decoded.width == 96 && decoded.height == 64)
        #expect(WebPEncodingTests.psnr(image, decoded) > 30)
    }

    @Test func alphaSurvivesTheRoundTrip() throws {
        let image = WebPEncodingTests.photo(width: 64, height: 32, alpha: true)
        let decoded = try Image(data: ImageEncoders.AVIF(quality: 0.9).encode(image))
        #expect(!decoded.isOpaque)
        #expect(abs(Int(decoded.pixel(x: 0, y: 5).alpha)) <= 8)
        #expect(abs(Int(decoded.pixel(x: 63, y: 5).alpha) - 255) <= 8)
    }

    @Test func oddSizesRoundTrip() throws {
        let image = WebPEncodingTests.photo(width: 33, height: 17, alpha: false)
        let decoded = try Image(data: image.avifData())
        #expect(decoded.width == 33 && decoded.height == 17)
    }
}
