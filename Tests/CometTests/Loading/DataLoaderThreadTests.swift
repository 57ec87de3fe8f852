import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet
import CometTestSupport

/// The default loader starts its transfer thread when the first http(s) load starts, not before
/// (and URLSessionDataLoader makes its `URLSession` likewise): a pipeline configured with another
/// loader, or one that only reads files, never starts one.
@Suite("DataLoader thread", .timeLimit(.minutes(10)))
struct DataLoaderThreadTests {
    @Test func aLoaderStartsNoThreadUntilItsFirstHTTPLoad() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 4, height: 4), at: "a.png")
        let loader = DataLoader()
        #expect(!loader.hasStartedThread)
        let pipeline = ImagePipeline { $0.dataLoader = loader }
        let image = try await pipeline.image(for: server.imageURL("a.png"))
        #expect(image.width == 4)
        #expect(loader.hasStartedThread)
    }

    @Test func fileAndDataURLsNeedNoThread() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "comet-session-\(UUID().uuidString).png")
        try TestImages.png(width: 3, height: 3).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let loader = DataLoader()
        let pipeline = ImagePipeline { $0.dataLoader = loader }
        let fromFile = try await pipeline.image(for: file)
        let dataURL = URL(string: "data:image/png;base64," + TestImages.png(width: 2, height: 2).base64EncodedString())!
        let fromData = try await pipeline.image(for: dataURL)
        #expect(fromFile.width == 3 && fromData.width == 2)
        #expect(!loader.hasStartedThread)
    }

    @Test func aConfigurationGivenAnotherLoaderStartsNoThread() {
        let configuration = ImagePipeline.Configuration()
        #expect((configuration.dataLoader as? DataLoader)?.hasStartedThread == false)
    }

    @Test func aURLSessionLoaderMakesNoSessionUntilItsFirstHTTPLoad() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 4, height: 4), at: "a.png")
        let loader = URLSessionDataLoader()
        #expect(!loader.hasMadeSession)
        let pipeline = ImagePipeline { $0.dataLoader = loader }
        let image = try await pipeline.image(for: server.imageURL("a.png"))
        #expect(image.width == 4)
        #expect(loader.hasMadeSession)
    }
}
