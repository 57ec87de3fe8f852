import Foundation
import Testing
import NukeCompat
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Nuke 4: requests whose processors differ are not equivalent for loading, so a deduplicated
/// load never hands one caller the image processed for another.
@Suite("DeduplicatorProcessorTests", .timeLimit(.minutes(10)))
struct DeduplicatorProcessorTests {
    @Test func concurrentLoadsWithDifferentProcessorsEachGetTheirOwnImage() async throws {
        let gate = GatedDataLoader(data: TestImages.png(width: 10, height: 6))
        let deduplicator = Deduplicator(loader: Loader(loader: gate, decoder: DataDecoder(), cache: nil))
        let url = URL(string: "http://example.com/a.png")!
        let widened = deduplicator.loadImage(with: Request(url: url).processed(with: Widen(columns: 1)))
        let doubled = deduplicator.loadImage(with: Request(url: url).processed(with: DoubleWidth()))
        #expect(widened !== doubled)
        #expect(await eventually { gate.pendingCount == 2 }, "each processor variant starts its own load")
        gate.open()
        #expect(await resolution(of: widened)?.value?.width == 11)
        #expect(await resolution(of: doubled)?.value?.width == 20)
    }

    @Test func concurrentLoadsWithEqualProcessorsShareOneLoad() async throws {
        let gate = GatedDataLoader(data: TestImages.png(width: 10, height: 6))
        let deduplicator = Deduplicator(loader: Loader(loader: gate, decoder: DataDecoder(), cache: nil))
        let url = URL(string: "http://example.com/a.png")!
        let first = deduplicator.loadImage(with: Request(url: url).processed(with: Widen(columns: 3)))
        let second = deduplicator.loadImage(with: Request(url: url).processed(with: Widen(columns: 3)))
        #expect(first === second)
        gate.open()
        #expect(await resolution(of: second)?.value?.width == 13)
        #expect(gate.startedCount == 1)
    }

    @Test func differentProcessorsOverTheNetworkGiveEachCallerItsImage() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 10, height: 6), at: "a.png")
        let deduplicator = Deduplicator(loader: makeLoader(cache: nil))
        let url = server.url("/slow/300/a.png")
        let widened = deduplicator.loadImage(with: Request(url: url).processed(with: Widen(columns: 1)))
        let doubled = deduplicator.loadImage(with: Request(url: url).processed(with: DoubleWidth()))
        let plain = deduplicator.loadImage(with: Request(url: url))
        #expect(await resolution(of: widened)?.value?.width == 11)
        #expect(await resolution(of: doubled)?.value?.width == 20)
        #expect(await resolution(of: plain)?.value?.width == 10)
    }

    @Test func loadImageWithoutATokenCompiles() async throws {
        let deduplicator = Deduplicator(loader: MockImageLoader())
        let promise = deduplicator.loadImage(with: Request(url: URL(string: "http://example.com/a.png")!))
        #expect(await resolution(of: promise)?.value != nil)
    }
}
