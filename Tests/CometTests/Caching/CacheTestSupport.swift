import Locking
import Foundation
import Synchronization
@testable import Comet
import CometTestSupport

/// An image whose `cost` is exactly `bytes` (a multiple of 4): one row of `bytes / 4` pixels.
func testImage(costing bytes: Int, shade: UInt8 = 0) -> Image {
    precondition(bytes >= 4 && bytes % 4 == 0)
    return Image(width: bytes / 4, height: 1, color: RGBA8(red: shade, green: 0, blue: 0, alpha: 255))
}

/// A cache entry whose cost is exactly `bytes`.
func entry(costing bytes: Int, shade: UInt8 = 0) -> CachedImage {
    CachedImage(image: testImage(costing: bytes, shade: shade))
}

/// A clock that moves only when told to, for TTL tests.
final class ManualClock: Sendable {
    private let seconds = Locked<Double>(1000)
    var now: Double { seconds.withLock { $0 } }
    func advance(by interval: Double) { seconds.withLock { $0 += interval } }
}

/// A fresh empty directory under the system temporary directory; removed by `cleanUp()`.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init(_ label: String = #function) throws {
        let name = "comet-cache-tests-\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString)"
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The namespace of the caching tests, so `swift test --filter Caching` selects them all.
enum Caching {}
