import Foundation
import Testing
import NukeCompat
import CometTestSupport

@Suite("ProcessingTests", .timeLimit(.minutes(10)))
struct ProcessingTests {
    @Test func processedImageIsMemoryCachedUnderTheProcessedRequestKey() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 10, height: 10), at: "a.png")
        let cache = Cache()
        let plain = Request(url: server.imageURL("a.png"))
        let processed = plain.processed(with: Widen(columns: 3))
        let image = await resolution(of: makeLoader(cache: cache).loadImage(with: processed))?.value
        #expect(image?.width == 13)
        #expect(cache[processed]?.width == 13)
        #expect(cache[plain] == nil)
    }

    @Test func compositionsApplyInOrder() {
        let image = TestImages.image(width: 10, height: 1)
        let widenThenDouble = ProcessorComposition([AnyProcessor(Widen(columns: 1)), AnyProcessor(DoubleWidth())])
        let doubleThenWiden = ProcessorComposition([AnyProcessor(DoubleWidth()), AnyProcessor(Widen(columns: 1))])
        #expect(widenThenDouble.process(image)?.width == 22)
        #expect(doubleThenWiden.process(image)?.width == 21)
    }

    @Test func processWithComposesAfterTheExistingProcessor() {
        var request = Request(url: URL(string: "http://example.com/a.jpg")!)
        request.process(with: Widen(columns: 1))
        request.process(with: DoubleWidth())
        #expect(request.processor?.process(TestImages.image(width: 10, height: 1))?.width == 22)
    }

    @Test func compositionFailsWhenAProcessorFails() {
        let composition = ProcessorComposition([AnyProcessor(FailingProcessor()), AnyProcessor(Widen(columns: 1))])
        #expect(composition.process(TestImages.image()) == nil)
    }

    @Test func anyProcessorEqualityNeedsTheSameTypeAndItsEquality() {
        #expect(AnyProcessor(Widen(columns: 1)) == AnyProcessor(Widen(columns: 1)))
        #expect(AnyProcessor(Widen(columns: 1)) != AnyProcessor(Widen(columns: 2)))
        #expect(AnyProcessor(DoubleWidth()) != AnyProcessor(FailingProcessor()))
    }

    @Test func decompressorScalesDownToTheTargetSize() {
        let image = TestImages.image(width: 100, height: 50)
        let fitted = Decompressor(targetSize: CGSize(width: 20, height: 20), contentMode: .aspectFit).process(image)
        #expect(fitted?.width == 20 && fitted?.height == 10)
        let filled = Decompressor(targetSize: CGSize(width: 20, height: 20), contentMode: .aspectFill).process(image)
        #expect(filled?.width == 40 && filled?.height == 20)
    }

    @Test func decompressorNeverUpscalesAndDefaultsToNoResize() {
        let image = TestImages.image(width: 10, height: 10)
        #expect(Decompressor().process(image)?.width == 10)
        #expect(Decompressor(targetSize: CGSize(width: 50, height: 50)).process(image)?.width == 10)
    }
}
