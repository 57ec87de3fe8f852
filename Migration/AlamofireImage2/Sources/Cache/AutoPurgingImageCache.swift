import class Comet.MemoryPressureMonitor
import protocol Comet.MemoryPressureTrimming
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// AlamofireImage's in-memory cache: images cost `width × height × 4` bytes; when an add takes
/// ``memoryUsage`` above ``memoryCapacity``, the least recently accessed images are removed until
/// usage is at most ``preferredMemoryUsageAfterPurge``.
///
/// Adding and reading an image both count as an access. Thread-safe (one lock; every method
/// returns with its effect done). Linux has no memory-warning notification, so nothing purges
/// the cache except its own limits and ``removeAllImages()``.
public final class AutoPurgingImageCache: ImageRequestCache, Sendable {
    private struct Entry {
        let image: Image
        let cost: UInt64
        var lastAccess: UInt64
    }

    /// The images, the bytes they cost, and the access counter, behind one lock.
    private struct Store {
        var entries: [String: Entry] = [:]
        var usage: UInt64 = 0
        // A counter, not a clock: accesses in the same instant still have a strict order.
        var clock: UInt64 = 0

        /// Removes least recently accessed images until usage is at most `target`.
        mutating func purge(downTo target: UInt64) {
            let bytesToPurge = usage - min(usage, target)
            var purged: UInt64 = 0
            for (identifier, entry) in entries.sorted(by: { $0.value.lastAccess < $1.value.lastAccess }) {
                guard purged < bytesToPurge else { break }
                entries[identifier] = nil
                purged += entry.cost
            }
            usage -= purged
        }
    }

    /// Bytes the cache may hold before it purges. Default 100 000 000.
    public let memoryCapacity: UInt64
    /// Bytes the cache holds at most after a purge. Default 60 000 000.
    public let preferredMemoryUsageAfterPurge: UInt64

    private let store = LockedValue(Store())

    /// A cache that purges above `memoryCapacity` bytes down to `preferredMemoryUsageAfterPurge`.
    /// - Precondition: `memoryCapacity >= preferredMemoryUsageAfterPurge`.
    public init(memoryCapacity: UInt64 = 100_000_000, preferredMemoryUsageAfterPurge: UInt64 = 60_000_000) {
        precondition(
            memoryCapacity >= preferredMemoryUsageAfterPurge,
            "The `memoryCapacity` must be greater than or equal to `preferredMemoryUsageAfterPurge`")
        self.memoryCapacity = memoryCapacity
        self.preferredMemoryUsageAfterPurge = preferredMemoryUsageAfterPurge
        MemoryPressureMonitor.shared.register(self)
    }

    /// The bytes the cached images cost (`width × height × 4` each).
    public var memoryUsage: UInt64 { store.withLock { $0.usage } }

    /// The cost the cache counts for `image`: `width × height × 4` bytes.
    static func cost(of image: Image) -> UInt64 { UInt64(image.width) * UInt64(image.height) * 4 }

    /// The key for `request` and `identifier`: the URL string (with a digest of the headers
    /// when the request sets any, see `imageKey`), then `-identifier`
    /// if any.
    static func key(for request: URLRequest, identifier: String?) -> String {
        request.imageKey + (identifier.map { "-\($0)" } ?? "")
    }

    // MARK: ImageCache

    /// Stores `image` under `identifier` (replacing any image there), then purges if needed.
    public func addImage(_ image: Image, withIdentifier identifier: String) {
        store.withLock { [memoryCapacity, preferredMemoryUsageAfterPurge] store in
            store.clock += 1
            let entry = Entry(image: image, cost: Self.cost(of: image), lastAccess: store.clock)
            if let previous = store.entries.updateValue(entry, forKey: identifier) { store.usage -= previous.cost }
            store.usage += entry.cost
            if store.usage > memoryCapacity { store.purge(downTo: preferredMemoryUsageAfterPurge) }
        }
    }

    /// Removes the image under `identifier`; `true` if there was one.
    @discardableResult
    public func removeImageWithIdentifier(_ identifier: String) -> Bool {
        store.withLock { store in
            guard let entry = store.entries.removeValue(forKey: identifier) else { return false }
            store.usage -= entry.cost
            return true
        }
    }

    /// Removes every image; `true` if there was any.
    @discardableResult
    public func removeAllImages() -> Bool {
        store.withLock { store in
            let removed = !store.entries.isEmpty
            store.entries.removeAll()
            store.usage = 0
            return removed
        }
    }

    /// The image under `identifier`, if any; the read counts as an access.
    public func imageWithIdentifier(_ identifier: String) -> Image? {
        store.withLock { store in
            guard store.entries[identifier] != nil else { return nil }
            store.clock += 1
            store.entries[identifier]!.lastAccess = store.clock
            return store.entries[identifier]!.image
        }
    }

    // MARK: ImageRequestCache

    /// Stores `image` under the request's URL string (plus `-identifier` if given).
    public func addImage(
        _ image: Image, forRequest request: URLRequest, withAdditionalIdentifier identifier: String? = nil
    ) {
        addImage(image, withIdentifier: Self.key(for: request, identifier: identifier))
    }

    /// Removes the image for the request (and `identifier`); `true` if there was one.
    @discardableResult
    public func removeImageForRequest(_ request: URLRequest, withAdditionalIdentifier identifier: String? = nil) -> Bool
    {
        removeImageWithIdentifier(Self.key(for: request, identifier: identifier))
    }

    /// The image for the request (and `identifier`), if any; the read counts as an access.
    public func imageForRequest(_ request: URLRequest, withAdditionalIdentifier identifier: String? = nil) -> Image? {
        imageWithIdentifier(Self.key(for: request, identifier: identifier))
    }
}

extension AutoPurgingImageCache: MemoryPressureTrimming {
    /// Keeps about half of ``memoryUsage`` at a warning, nothing at critical pressure (Linux's
    /// counterpart of AlamofireImage's purge on a memory warning).
    public func trim(for level: MemoryPressureMonitor.Level) {
        store.withLock { $0.purge(downTo: level.costToKeep(of: $0.usage)) }
    }
}
