import AlamofireImageCompat
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shim's default URL cache leaves no trace in the program's working directory.
@Suite("ImageDownloader default URL cache")
struct ImageDownloaderURLCacheTests {
    @Test func defaultURLCacheCreatesNoFolderInTheWorkingDirectory() throws {
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("com.alamofire.imagedownloader")
        try? FileManager.default.removeItem(at: folder)  // left by an older version of the shim
        let cache = ImageDownloader.defaultURLCache()
        _ = ImageDownloader(configuration: ImageDownloader.defaultURLSessionConfiguration())
        #expect(cache.memoryCapacity == 20 * 1024 * 1024)
        #expect(cache.diskCapacity == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
