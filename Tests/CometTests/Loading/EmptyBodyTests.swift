import Comet
import CometTestSupport
import FlyingFox
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `DataLoading`'s contract for an empty body: one empty chunk carries the response before
/// `completion(nil)`, so the response is never lost; the pipeline still fails an empty image
/// body with `dataIsEmpty`. Through a real server on 127.0.0.1.
@Suite("An empty body", .timeLimit(.minutes(10)))
struct EmptyBodyTests {
    @Test func theDefaultLoaderDeliversAnEmpty200InOneEmptyChunkWithItsResponse() async throws {
        let server = try await SharedTestServer.common.server
        server.handle("/empty-body-200") { _ in
            HTTPResponse(statusCode: .ok, headers: HTTPHeaders([HTTPHeader("X-Origin"): "empty"]), body: Data())
        }
        let load = await RecordedLoad.load(server.url("/empty-body-200"), with: DataLoader())
        #expect(load.error == nil)
        #expect(load.chunks.count == 1)
        #expect(load.chunks.first?.data.isEmpty == true)
        #expect(load.status == 200)
        #expect(load.header("X-Origin") == "empty")
        #expect(!load.chunkAfterCompletion)
    }

    @Test func theDefaultLoaderDeliversA204InOneEmptyChunk() async throws {
        let server = try await SharedTestServer.common.server
        let load = await RecordedLoad.load(server.url("/status/204"), with: DataLoader())
        #expect(load.error == nil)
        #expect(load.chunks.count == 1)
        #expect(load.status == 204)
    }

    @Test func aBodyWithBytesGetsNoExtraEmptyChunk() async throws {
        let server = try await SharedTestServer.common.server
        server.serve(Data(repeating: 3, count: 5000), at: "empty-body-bytes.bin")
        let load = await RecordedLoad.load(server.imageURL("empty-body-bytes.bin"), with: DataLoader())
        #expect(load.error == nil)
        #expect(load.data.count == 5000)
        #expect(load.chunks.allSatisfy { !$0.data.isEmpty })
    }

    @Test func aRefusedStatusDeliversNoChunk() async throws {
        let server = try await SharedTestServer.common.server
        let load = await RecordedLoad.load(server.url("/status/404"), with: DataLoader())
        #expect(load.loaderError == .statusCode(404))
        #expect(load.chunks.isEmpty)
    }

    @Test func thePipelineFailsAnEmptyImageBodyAsEmptyData() async throws {
        let server = try await SharedTestServer.common.server
        server.handle("/empty.png") { _ in HTTPResponse(statusCode: .ok, body: Data()) }
        let pipeline = ImagePipeline { $0.dataCache = nil }
        await #expect {
            _ = try await pipeline.image(for: ImageRequest(url: server.url("/empty.png")))
        } throws: { error in
            guard case .dataIsEmpty? = error as? ImagePipeline.Error else { return false }
            return true
        }
    }

    @Test func aProgressivePipelineFailsAnEmptyImageBodyAsEmptyData() async throws {
        let server = try await SharedTestServer.common.server
        server.handle("/empty.jpg") { _ in HTTPResponse(statusCode: .ok, body: Data()) }
        let pipeline = ImagePipeline {
            $0.dataCache = nil
            $0.isProgressiveDecodingEnabled = true
        }
        await #expect {
            _ = try await pipeline.image(for: ImageRequest(url: server.url("/empty.jpg")))
        } throws: { error in
            guard case .dataIsEmpty? = error as? ImagePipeline.Error else { return false }
            return true
        }
    }
}
