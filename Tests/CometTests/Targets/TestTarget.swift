import Locking
import Dispatch
import Foundation
@testable import Comet

/// An ``ImageDisplaying`` that records every display: the image's width (nil for a cleared
/// target), whether it was a preview, and the queue label it ran on.
final class TestTarget: ImageDisplaying, @unchecked Sendable {
    struct Shown: Equatable {
        let width: Int?
        let isPreview: Bool
    }

    private let log = Locked<[Shown]>([])
    private let labels = Locked<[String?]>([])
    private let overlaps = Locked((inside: 0, max: 0))

    func display(_ image: Image?, isPreview: Bool) {
        overlaps.withLock {
            $0.inside += 1; $0.max = max($0.max, $0.inside)
        }
        log.withLock { $0.append(Shown(width: image?.width, isPreview: isPreview)) }
        labels.withLock { $0.append(DispatchQueue.getSpecific(key: QueueLabel.key)) }
        overlaps.withLock { $0.inside -= 1 }
    }

    var shown: [Shown] { log.withLock { $0 } }
    var widths: [Int?] { shown.map(\.width) }
    var queueLabels: [String?] { labels.withLock { $0 } }
    /// The most displays ever running at once (1 when calls never overlap).
    var maxConcurrentDisplays: Int { overlaps.withLock { $0.max } }
}

/// Weak reference for release tests.
struct WeakTarget: @unchecked Sendable {
    weak var target: TestTarget?
}
