import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// Progressive previews through a drip-feeding server route, and the demand rule: one unit of
/// demand is always kept for the final image; previews go out only while demand is at least 2.
@Suite("ImageStream previews and demand", .timeLimit(.minutes(10)))
struct ImageStreamDemandTests {
    typealias Recorder = StreamRecorder<ImageResponse, ImagePipeline.Error>

    private static let width = 512

    private func setUp() async throws -> (TestServer, ImagePipeline) {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: Self.width, height: 384, progressive: true), at: "p.jpg")
        let (pipeline, _) = makeRealPipeline { $0.isProgressiveDecodingEnabled = true }
        return (server, pipeline)
    }

    private func dripURL(_ server: TestServer, chunk: Int = 2048, interval: Int = 15) -> URL {
        server.url("/drip/p.jpg?chunk=\(chunk)&interval=\(interval)")
    }

    @Test func unlimitedDemandGetsPreviewsThenTheFinalImage() async throws {
        let (server, pipeline) = try await setUp()
        let recorder = Recorder()
        pipeline.imageStream(with: dripURL(server)).subscribe(recorder)
        #expect(await recorder.waitForCompletion())
        let values = recorder.values
        #expect(values.count >= 3, "\(values.count) values")
        #expect(values.dropLast().allSatisfy { $0.isPreview })
        #expect(values.last?.isPreview == false && values.last?.image.width == Self.width)
        #expect(recorder.isFinished)
    }

    @Test func demandOfOneGetsExactlyTheFinalImage() async throws {
        let (server, pipeline) = try await setUp()
        let recorder = Recorder(initialDemand: .max(1))
        pipeline.imageStream(with: dripURL(server)).subscribe(recorder)
        #expect(await recorder.waitForCompletion())
        #expect(recorder.values.map(\.isPreview) == [false])
        #expect(recorder.isFinished)
    }

    @Test func demandOfTwoGetsOnePreviewThenTheFinalImage() async throws {
        let (server, pipeline) = try await setUp()
        let recorder = Recorder(initialDemand: .max(2))
        pipeline.imageStream(with: dripURL(server)).subscribe(recorder)
        #expect(await recorder.waitForCompletion())
        #expect(recorder.values.map(\.isPreview) == [true, false])
    }

    @Test func oneMorePerValueKeepsPreviewsFlowing() async throws {
        let (server, pipeline) = try await setUp()
        let recorder = Recorder(initialDemand: .max(2), demandPerValue: .max(1))
        pipeline.imageStream(with: dripURL(server)).subscribe(recorder)
        #expect(await recorder.waitForCompletion())
        let flags = recorder.values.map(\.isPreview)
        #expect(flags.count >= 3 && flags.last == false && flags.dropLast().allSatisfy { $0 })
    }

    /// A preview that arrived without enough demand is held (only the latest) and delivered when
    /// demand reaches 2 before the final image.
    @Test func heldPreviewIsReleasedByLaterDemand() async throws {
        let (server, pipeline) = try await setUp()
        let recorder = Recorder(initialDemand: .max(1))
        let size = TestImages.jpeg(width: Self.width, height: 384, progressive: true).count
        let url = dripURL(server, chunk: 1024, interval: 100)  // about size/1024 × 100 ms in all
        pipeline.imageStream(with: url).subscribe(recorder)
        // Wait about half the delivery: previews have been made (and held) by then.
        try await Task.sleep(for: .milliseconds(max(300, size / 1024 * 50)))
        #expect(recorder.values.isEmpty)
        recorder.subscription?.request(.max(1))
        #expect(await eventually { recorder.values.count == 1 })
        #expect(recorder.values.first?.isPreview == true)
        #expect(await recorder.waitForCompletion())
        #expect(recorder.values.map(\.isPreview) == [true, false])
    }

    @Test func cancelDuringPreviewsStopsEverything() async throws {
        let (server, pipeline) = try await setUp()
        let values = Collected<ImageResponse>()
        let cancellable = pipeline.imageStream(with: dripURL(server, interval: 60))
            .sink(receiveCompletion: { _ in values.finish() }, receiveValue: { response in values.append(response) })
        #expect(await eventually { values.count >= 1 })
        cancellable.cancel()
        let seen = values.count
        try await Task.sleep(for: .milliseconds(500))
        #expect(values.count == seen && !values.isDone)
        #expect(values.all.allSatisfy { $0.isPreview })
        #expect(await eventually { pipeline.activeTaskCount == 0 })
    }
}
