import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@testable import Comet

/// A pipeline over the real ``DataLoader`` with private caches (a disk cache in a fresh
/// temporary directory when `diskCache` is set), for end-to-end tests.
func makeRealPipeline(
    diskCache: Bool = false, loader: DataLoader.Configuration = DataLoader.Configuration(),
    _ configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
) -> (ImagePipeline, DataCache?) {
    let dataCache = diskCache ? temporaryDataCache() : nil
    let pipeline = ImagePipeline {
        $0.dataLoader = DataLoader(configuration: loader)
        $0.imageCache = ImageCache()
        $0.dataCache = dataCache
        $0.isRateLimiterEnabled = false
        configure(&$0)
    }
    return (pipeline, dataCache)
}

func temporaryDataCache() -> DataCache {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("comet-tests-\(UUID().uuidString)")
    return DataCache(path: path)
}

extension ImagePipeline.Error {
    var isDecodingFailure: Bool { if case .decodingFailed = self { true } else { false } }
}
