import Locking
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet
import CometTestSupport

/// Tiny images skip the worker round trip: a decoder that checks limits from the header first
/// gets one attempt, with the pixel limit lowered, on the thread that finished the download.
@Suite("Light decodes", .timeLimit(.minutes(10)))
struct LightDecodeTests {
    /// A test format declaring its size in its first bytes ("SIZD" + "width×height").
    enum SizedFormat {
        static let type = AssetType("sized")
        static func file(width: Int, height: Int) -> Data { Data("SIZD\(width)x\(height)".utf8) }
        static let recognizes: @Sendable (Data) -> Bool = { $0.starts(with: Array("SIZD".utf8)) }
    }

    /// Decodes ``SizedFormat`` and records, for each call, the thread and the pixel limit.
    final class RecordingDecoder: ImageDecoding, @unchecked Sendable {
        struct Call { let thread: pthread_t; let maxSourcePixelCount: Int }
        let checksLimitsBeforeDecoding: Bool
        private let recorded = Locked<[Call]>([])
        var calls: [Call] { recorded.withLock { $0 } }

        init(checksLimits: Bool) { checksLimitsBeforeDecoding = checksLimits }

        func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
            recorded.withLock {
                $0.append(Call(thread: pthread_self(), maxSourcePixelCount: options.limits.maxSourcePixelCount))
            }
            let sides = String(decoding: data.dropFirst(4), as: UTF8.self).split(separator: "x").compactMap { Int($0) }
            let (width, height) = (sides[0], sides[1])
            guard width * height <= options.limits.maxSourcePixelCount else {
                throw .tooLarge(width: width, height: height, limit: "maxSourcePixelCount")
            }
            return DecodedImage(
                image: Image(width: width, height: height, color: .white), type: SizedFormat.type,
                sourceWidth: width, sourceHeight: height)
        }
    }

    /// Answers on the calling thread (inside the graph) and remembers that thread.
    final class ThreadRecordingLoader: DataLoading, @unchecked Sendable {
        let data: Data
        private let thread = Locked<pthread_t?>(nil)
        var loadThread: pthread_t? { thread.withLock { $0 } }
        init(data: Data) { self.data = data }
        func loadData(
            with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
            completion: @escaping @Sendable ((any Error)?) -> Void
        ) -> any DataLoadingTask {
            thread.withLock { $0 = pthread_self() }
            didReceiveData(
                data,
                URLResponse(url: request.url!, mimeType: nil, expectedContentLength: data.count, textEncodingName: nil))
            completion(nil)
            return EngineBehaviourTests.SynchronousLoader.NoTask()
        }
    }

    func load(_ file: Data, with decoder: RecordingDecoder) async throws -> (Image, ThreadRecordingLoader) {
        let loader = ThreadRecordingLoader(data: file)
        var decoders = ImageDecoderRegistry.default
        decoders.register(SizedFormat.type, decoder: decoder, recognizedBy: SizedFormat.recognizes)
        let pipeline = ImagePipeline.test(loader: loader) { $0.decoders = decoders }
        let image = try await pipeline.image(for: URL(string: "https://light.example/image.sized")!)
        return (image, loader)
    }

    @Test func aTinyImageIsDecodedOnceOnTheThreadThatFinishedItsDownload() async throws {
        let decoder = RecordingDecoder(checksLimits: true)
        let (image, loader) = try await load(SizedFormat.file(width: 16, height: 16), with: decoder)
        #expect(image.width == 16)
        let calls = decoder.calls
        #expect(calls.count == 1)
        #expect(calls.first.map { pthread_equal($0.thread, loader.loadThread!) != 0 } == true)
        #expect(calls.first?.maxSourcePixelCount == CompleteDataDecode.lightPixelLimit)
    }

    @Test func aLargerImageFailsTheLightAttemptFromItsHeaderAndIsDecodedOnAWorkerWithTheRealLimits() async throws {
        let decoder = RecordingDecoder(checksLimits: true)
        let (image, loader) = try await load(SizedFormat.file(width: 100, height: 100), with: decoder)
        #expect(image.width == 100)
        let calls = decoder.calls
        #expect(calls.count == 2)
        #expect(calls.first?.maxSourcePixelCount == CompleteDataDecode.lightPixelLimit)
        #expect(calls.last?.maxSourcePixelCount == ImageDecodingLimits().maxSourcePixelCount)
        #expect(calls.last.map { pthread_equal($0.thread, loader.loadThread!) != 0 } == false)
    }

    @Test func aDecoderThatDoesNotCheckLimitsFirstAlwaysRunsOnAWorker() async throws {
        let decoder = RecordingDecoder(checksLimits: false)
        let (_, loader) = try await load(SizedFormat.file(width: 16, height: 16), with: decoder)
        let calls = decoder.calls
        #expect(calls.count == 1)
        #expect(calls.first?.maxSourcePixelCount == ImageDecodingLimits().maxSourcePixelCount)
        #expect(calls.first.map { pthread_equal($0.thread, loader.loadThread!) != 0 } == false)
    }

    @Test func anImageTooLargeForTheConfiguredLimitsStillFailsAsTooLarge() async throws {
        let decoder = RecordingDecoder(checksLimits: true)
        let loader = ThreadRecordingLoader(data: SizedFormat.file(width: 100, height: 100))
        var decoders = ImageDecoderRegistry.default
        decoders.register(SizedFormat.type, decoder: decoder, recognizedBy: SizedFormat.recognizes)
        let pipeline = ImagePipeline.test(loader: loader) {
            $0.decoders = decoders
            $0.decodingOptions.limits.maxSourcePixelCount = 1_000
        }
        await #expect {
            _ = try await pipeline.image(for: URL(string: "https://light.example/big.sized")!)
        } throws: { error in
            guard case .imageTooLarge = error as? ImagePipeline.Error else { return false }
            return true
        }
    }

    @Test func theBuiltInDecodersCheckLimitsBeforeDecoding() {
        #expect(PNGDecoder().checksLimitsBeforeDecoding)
        #expect(JPEGDecoder().checksLimitsBeforeDecoding)
    }
}
