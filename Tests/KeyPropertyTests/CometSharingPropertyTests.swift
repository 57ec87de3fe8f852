import Foundation
import PropertyBased
import Testing
@testable import Comet
import CometTestSupport

/// Loads pairs of random requests at once, then from each cache, and checks that each request
/// gets the image it would get alone: no result is ever shared across requests that differ,
/// and equal requests share one download.
@Suite("Comet sharing properties", .timeLimit(.minutes(10)))
struct CometSharingPropertyTests {
    /// The image `spec` gets when loaded alone, by a fresh pipeline.
    static func reference(_ spec: RequestSpec) async throws -> Image {
        let pipeline = ImagePipeline {
            $0.dataLoader = ModelDataLoader(holdsLoads: false)
            $0.imageCache = nil
            $0.isRateLimiterEnabled = false
        }
        return try await pipeline.image(for: spec.request)
    }

    @Test func concurrentRequestsEachGetTheirOwnImageAndEqualOnesShareOneDownload() async throws {
        await propertyCheck(count: 150, input: RequestSpec.loadablePair) { a, b in
            let loader = ModelDataLoader()
            let pipeline = ImagePipeline {
                $0.dataLoader = loader
                $0.imageCache = ImageCache()
                $0.isRateLimiterEnabled = false
            }
            let first = pipeline.imageTask(with: a.request)
            let second = pipeline.imageTask(with: b.request)
            pipeline.context.executor.sync { _ in }  // both tasks have joined the graph
            let expectedLoads = DataLoadKey(a.request) == DataLoadKey(b.request) ? 1 : 2
            #expect(await eventually { loader.startedCount == expectedLoads }, "\(a) | \(b)")
            loader.open()
            let (imageA, imageB) = try await (first.image, second.image)
            #expect(imageA == (try await Self.reference(a)), "\(a) | \(b)")
            #expect(imageB == (try await Self.reference(b)), "\(a) | \(b)")
            #expect(loader.startedCount == expectedLoads, "\(a) | \(b)")
            #expect(pipeline.cache[a.request]?.image == imageA, "memory cache: \(a)")
            #expect(pipeline.cache[b.request]?.image == imageB, "memory cache: \(b)")
        }
    }

    @Test func theDiskCacheGivesEachRequestItsOwnImage() async throws {
        await propertyCheck(count: 100, input: RequestSpec.loadablePair) { a, b in
            let disk = MemoryDataCache()
            let writer = ImagePipeline {
                $0.dataLoader = ModelDataLoader(holdsLoads: false)
                $0.imageCache = nil
                $0.dataCache = disk
                $0.dataCachePolicy = .storeAll
                // Lossless, so an image read back from the disk equals the one stored.
                $0.makeImageEncoder = { _ in ImageEncoders.PNG() }
                $0.isRateLimiterEnabled = false
            }
            let plain = [a, b].map { spec -> RequestSpec in
                var spec = spec
                spec.source = .plain
                return spec
            }
            for spec in plain { _ = try await writer.image(for: spec.request) }
            // Every original is stored (`.storeAll`); a transformed result is stored encoded too
            // when it was made from downloaded bytes.
            let originals = Set(plain.map(\.request.dataKey))
            #expect(await eventually { disk.keys.isSuperset(of: originals) }, "\(a) | \(b)")
            let reader = ImagePipeline {
                $0.dataLoader = FailingDataLoader()
                $0.imageCache = nil
                $0.dataCache = disk
                $0.dataCachePolicy = .storeAll
                $0.isRateLimiterEnabled = false
            }
            for spec in plain {
                let image = try await reader.image(for: spec.request)
                // An encoded result comes back through PNG, which unpremultiplies alpha.
                let reference = try await Self.reference(spec)
                let roundTripped = try Image(data: ImageEncoders.png(reference))
                #expect(image == reference || image == roundTripped, "disk cache: \(spec) (pair \(a) | \(b))")
            }
        }
    }
}
