import CometTestSupport
import Foundation
import HanekeCompat
import Testing

/// ImageResizer's scale modes on Comet's resize processor.
@Suite(.timeLimit(.minutes(10)))
struct ImageResizerTests {
    init() { TestBase.prepare() }

    let landscape = TestImages.image(width: 200, height: 100)

    private func size(_ image: Image) -> [Int] { [image.width, image.height] }

    @Test func aspectFitFitsInside() {
        let resizer = ImageResizer(size: CGSize(width: 50, height: 50), scaleMode: .AspectFit)
        #expect(size(resizer.resizeImage(landscape)) == [50, 25])
    }

    @Test func aspectFillCoversWithoutCropping() {
        let resizer = ImageResizer(size: CGSize(width: 50, height: 50), scaleMode: .AspectFill)
        #expect(size(resizer.resizeImage(landscape)) == [100, 50])
    }

    @Test func fillStretchesToTheExactSize() {
        let resizer = ImageResizer(size: CGSize(width: 30, height: 40), scaleMode: .Fill)
        #expect(size(resizer.resizeImage(landscape)) == [30, 40])
    }

    @Test func noneLeavesTheImageAlone() {
        let resizer = ImageResizer(size: CGSize(width: 30, height: 40))
        #expect(resizer.scaleMode == .None)
        #expect(size(resizer.resizeImage(landscape)) == [200, 100])
    }

    @Test func upscalingIsAllowedByDefault() {
        let resizer = ImageResizer(size: CGSize(width: 400, height: 400), scaleMode: .AspectFit)
        #expect(size(resizer.resizeImage(landscape)) == [400, 200])
    }

    @Test func withoutUpscalingAnEnlargingResizeReturnsTheImage() {
        let resizer = ImageResizer(size: CGSize(width: 400, height: 400), scaleMode: .AspectFit, allowUpscaling: false)
        #expect(size(resizer.resizeImage(landscape)) == [200, 100])
        let fill = ImageResizer(size: CGSize(width: 100, height: 200), scaleMode: .Fill, allowUpscaling: false)
        #expect(size(fill.resizeImage(landscape)) == [200, 100])
    }

    @Test func scaleModesHaveHanekesRawValues() {
        #expect(
            [ImageResizer.ScaleMode.Fill, .AspectFit, .AspectFill, .None].map(\.rawValue)
                == ["fill", "aspectfit", "aspectfill", "none"])
    }

    @Test func aResizingFormatCachesTheResizedImage() async {
        let cache = Cache<Image>(name: TestBase.uniqueName())
        let format = HanekeGlobals.UIKit.formatWithSize(CGSize(width: 20, height: 20), scaleMode: .AspectFit)
        #expect(format.name == "auto-20.0x20.0-aspectfit")
        #expect(format.diskCapacity == 10 * 1024 * 1024)
        cache.addFormat(format)
        let outcome = Outcome<Image>()
        cache.set(value: landscape, key: "k", formatName: format.name, success: outcome.succeed)
        #expect(await outcome.wait())
        #expect(outcome.value.map(size) == [20, 10])
        #expect(await eventually { cache.size > 0 })
    }
}
