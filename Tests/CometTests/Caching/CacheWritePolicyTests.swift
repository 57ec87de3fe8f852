import Foundation
import Testing
@testable import Comet

/// Every decision of the cache-write policy, as one table: policy × kind of request → what is
/// stored and read.
@Suite("Cache write policy")
struct CacheWritePolicyTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case plain, processed, thumbnail, local, noDiskWrites, noDiskReads
        var testDescription: String { rawValue }

        var request: ImageRequest {
            let url = URL(string: "https://example.com/a.jpg")!
            switch self {
            case .plain: return ImageRequest(url: url)
            case .processed: return ImageRequest(url: url, processors: [.resize(width: 10)])
            case .thumbnail: return ImageRequest(url: url, thumbnail: .init(maxPixelSize: 10))
            case .local: return ImageRequest(url: URL(fileURLWithPath: "/tmp/a.jpg"), processors: [.resize(width: 10)])
            case .noDiskWrites:
                return ImageRequest(url: url, processors: [.resize(width: 10)], options: .disableDiskCacheWrites)
            case .noDiskReads:
                return ImageRequest(url: url, processors: [.resize(width: 10)], options: .disableDiskCacheReads)
            }
        }
        var isProcessed: Bool { self != .plain && self != .thumbnail }
    }

    /// Expected (stores original, stores encoded result, reads encoded result, reads original).
    typealias Row = (ImagePipeline.DataCachePolicy, Kind, Bool, Bool, Bool, Bool)
    static let table: [Row] = [
        (.storeOriginalData, .plain, true, false, false, true),
        (.storeOriginalData, .processed, true, false, false, true),
        (.storeOriginalData, .thumbnail, true, false, false, true),
        (.storeEncodedImages, .plain, false, true, true, true),
        (.storeEncodedImages, .processed, false, true, true, true),
        (.storeEncodedImages, .thumbnail, false, true, true, true),
        (.storeAll, .plain, true, false, false, true),
        (.storeAll, .processed, true, true, true, true),
        (.storeAll, .thumbnail, true, true, true, true),
        (.automatic, .plain, true, false, false, true),
        (.automatic, .processed, false, true, true, true),
        (.automatic, .thumbnail, false, true, true, true),
        // Local sources are never stored nor looked up encoded; their original is read as usual.
        (.storeAll, .local, false, false, false, true),
        (.storeAll, .noDiskWrites, false, false, true, true),
        (.storeAll, .noDiskReads, true, true, false, false),
    ]

    @Test(arguments: table.indices)
    func decides(row index: Int) {
        let (policy, kind, storesOriginal, storesEncoded, readsEncoded, readsOriginal) = Self.table[index]
        let decisions = CacheWritePolicy(policy: policy, hasDataCache: true)
        let request = kind.request
        #expect(decisions.storesOriginalData(for: request) == storesOriginal, "\(policy) \(kind): stores original")
        #expect(
            decisions.storesEncodedImage(for: request, processed: kind.isProcessed) == storesEncoded,
            "\(policy) \(kind): stores encoded")
        #expect(
            decisions.readsEncodedImage(for: request, processed: kind.isProcessed) == readsEncoded,
            "\(policy) \(kind): reads encoded")
        #expect(decisions.readsOriginalData(for: request) == readsOriginal, "\(policy) \(kind): reads original")
    }

    @Test(
        arguments: [ImagePipeline.DataCachePolicy.storeOriginalData, .storeEncodedImages, .storeAll, .automatic],
        Kind.allCases)
    func withoutADataCacheNothingIsStoredOrRead(policy: ImagePipeline.DataCachePolicy, kind: Kind) {
        let decisions = CacheWritePolicy(policy: policy, hasDataCache: false)
        let request = kind.request
        #expect(!decisions.storesOriginalData(for: request))
        #expect(!decisions.storesEncodedImage(for: request, processed: kind.isProcessed))
        #expect(!decisions.readsEncodedImage(for: request, processed: kind.isProcessed))
        #expect(!decisions.readsOriginalData(for: request))
    }
}
