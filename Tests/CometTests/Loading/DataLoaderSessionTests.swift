import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet
import CometTestSupport

/// The default loader makes its `URLSession` when the first http(s) load starts, not before: a
/// pipeline configured with another loader, or one that only reads files, never makes one.
@Suite("DataLoader session", .timeLimit(.minutes(1)))
struct DataLoaderSessionTests {
    @Test func aLoaderMakesNoSessionUntilItsFirstHTTPLoad() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 4, height: 4), at: "a.png")
        let loader = DataLoader()
        #expect(!loader.hasMadeSession)
        let pipeline = ImagePipeline { $0.dataLoader = loader }
        let image = try await pipeline.image(for: server.imageURL("a.png"))
        #expect(image.width == 4)
        #expect(loader.hasMadeSession)
    }

    @Test func fileAndDataURLsNeedNoSession() async throws {
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
        #expect(!loader.hasMadeSession)
    }

    @Test func aConfigurationGivenAnotherLoaderMakesNoSession() {
        let configuration = ImagePipeline.Configuration()
        #expect((configuration.dataLoader as? DataLoader)?.hasMadeSession == false)
    }
}
