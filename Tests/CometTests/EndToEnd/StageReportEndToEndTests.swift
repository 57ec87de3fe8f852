import Foundation
import Locking
import Testing
@testable import Comet
import CometTestSupport

/// ``ImagePipeline/Hooks/stageFinished`` reports each final decode and processor run, through
/// the real loopback server and codecs.
@Suite("Stage reports end to end", .timeLimit(.minutes(10)))
struct StageReportEndToEndTests {
    private struct Refused: Error {}

    private func recordingPipeline(_ reports: Locked<[(ImageRequest, ImagePipeline.StageReport)]>) -> ImagePipeline {
        makeRealPipeline {
            $0.imageCache = nil
            $0.hooks.stageFinished = { request, report in reports.withLock { $0.append((request, report)) } }
        }.0
    }

    @Test func aDecodeAndEachProcessorAreReportedInOrderWithTheirOutputSizes() async throws {
        let server = try await TestServer.start()
        let jpeg = TestImages.jpeg(width: 64, height: 48)
        server.serve(jpeg, at: "a.jpg")
        let reports = Locked<[(ImageRequest, ImagePipeline.StageReport)]>([])
        let pipeline = recordingPipeline(reports)
        let request = ImageRequest(
            url: server.imageURL("a.jpg"),
            processors: [
                .crop(x: 0, y: 0, width: 40, height: 30),
                .resize(size: Size(width: 20, height: 15), contentMode: .stretch),
            ])
        _ = try await pipeline.image(for: request)
        let seen = reports.withLock { $0.map(\.1) }
        try #require(seen.count == 3)
        #expect(seen[0].stage == .decode)
        #expect(seen[0].outputSize == Size(width: 64, height: 48))
        #expect(seen[0].inputBytes == jpeg.count)
        #expect(seen[1].stage == .process(request.processors[0].identifier))
        #expect(seen[1].outputSize == Size(width: 40, height: 30))
        #expect(seen[2].stage == .process(request.processors[1].identifier))
        #expect(seen[2].outputSize == Size(width: 20, height: 15))
        #expect(seen.allSatisfy { $0.error == nil && $0.duration >= .zero })
        #expect(seen[0].start <= seen[1].start && seen[1].start <= seen[2].start)
        #expect(reports.withLock { $0.allSatisfy { $0.0.url == request.url } })
    }

    @Test func aThumbnailDecodeReportsTheReducedSize() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 64, height: 48), at: "a.jpg")
        let reports = Locked<[(ImageRequest, ImagePipeline.StageReport)]>([])
        _ = try await recordingPipeline(reports).image(
            for: ImageRequest(url: server.imageURL("a.jpg"), thumbnail: .init(maxPixelSize: 16)))
        let seen = reports.withLock { $0.map(\.1) }
        #expect(seen.map(\.stage) == [.decode])
        #expect(seen.first?.outputSize == Size(width: 16, height: 12))
    }

    @Test func aFailedDecodeIsReportedWithItsError() async throws {
        let server = try await TestServer.start()
        server.serve(Data("not an image at all".utf8), at: "bad.jpg")
        let reports = Locked<[(ImageRequest, ImagePipeline.StageReport)]>([])
        await #expect(throws: ImagePipeline.Error.self) {
            try await recordingPipeline(reports).image(for: server.imageURL("bad.jpg"))
        }
        let seen = reports.withLock { $0.map(\.1) }
        #expect(seen.map(\.stage) == [.decode])
        #expect(seen.first?.outputSize == nil)
        #expect(seen.first?.error is ImageDecodingError)
    }

    @Test func aFailedProcessorIsReportedWithItsOwnError() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 8, height: 8), at: "a.png")
        let reports = Locked<[(ImageRequest, ImagePipeline.StageReport)]>([])
        let refusing = ImageProcessors.Anonymous(id: "refuses") { _ in throw Refused() }
        await #expect(throws: ImagePipeline.Error.self) {
            try await recordingPipeline(reports).image(
                for: ImageRequest(url: server.imageURL("a.png"), processors: [refusing]))
        }
        let seen = reports.withLock { $0.map(\.1) }
        #expect(seen.map(\.stage) == [.decode, .process("refuses")])
        #expect(seen.last?.error is Refused)
    }

    @Test func aLightDecodeWithoutAWorkerIsReportedOnce() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 8, height: 8), at: "small.png")
        let reports = Locked<[(ImageRequest, ImagePipeline.StageReport)]>([])
        _ = try await recordingPipeline(reports).image(for: server.imageURL("small.png"))
        #expect(reports.withLock { $0.map(\.1.stage) } == [.decode])
    }
}
