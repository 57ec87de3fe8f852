import AlamofireImageCompat
import CometTestSupport
import Foundation
import Testing

/// `image.size`, as `UIImage.size` was read, is the pixel size (no screen scale on Linux).
@Suite("Image size")
struct ImageSizeTests {
    @Test func anImagesSizeIsItsPixelSize() throws {
        let image = try Image(data: TestImages.png(width: 33, height: 21))
        #expect(image.size == CGSize(width: 33, height: 21))
    }
}
