import Locking
import Foundation
import Synchronization

/// An in-memory LRU cache of decoded images, limited by total cost (bytes) and count.
///
/// ```swift
/// let cache = ImageCache(costLimit: 256 << 20)      // 256 MiB of pixels
/// cache["https://example.com/a.jpg"] = CachedImage(image: image)
/// let hit = cache["https://example.com/a.jpg"]?.image
/// ```
///
/// - Eviction: when an insertion takes ``totalCost`` over ``costLimit`` or ``totalCount`` over
///   ``countLimit``, the least recently used entries are removed until both fit. Reading an entry
///   (a hit) makes it the most recently used.
/// - Entry cap: an entry that costs more than ``entryCostLimit`` × ``costLimit`` is not stored
///   (and replaces nothing: an older entry under the same key is removed), so one huge image
///   cannot flush the whole cache.
/// - Expiry: with a ``ttl``, an entry stored at time *t* is not returned after *t* + `ttl`
///   (monotonic clock); expired entries are removed lazily when read, or evicted by LRU.
/// - Cost: ``CachedImage/cost``, the bytes of pixel memory the image keeps alive.
/// - Memory pressure: every cache registers with ``MemoryPressureMonitor/shared``, which trims it
///   when Linux reports memory pressure (once the monitor is started).
///
/// Every operation is O(1) (get, set, remove: a dictionary lookup plus an intrusive doubly linked
/// list). Thread-safe: all state sits behind one lock held only for that bookkeeping; images
/// that leave the cache are released after the lock is dropped, and no callback ever runs under it.
public final class ImageCache: ImageCaching, Sendable {
    /// A process-wide cache with the default limits.
    public static let shared = ImageCache()

    private struct State {
        var storage = LRUStorage<ImageCacheKey, CachedImage>()
        var costLimit: Int
        var countLimit: Int
        var entryCostLimit = 0.1
        var ttl: TimeInterval?

        var maximumEntryCost: Double { Double(costLimit) * entryCostLimit }

        mutating func trim(into removed: inout [CachedImage]) {
            storage.trim(toCost: costLimit, count: countLimit, into: &removed)
        }
    }

    private let state: Locked<State>
    /// Monotonic time in seconds; injectable so tests can move time forward.
    private let now: @Sendable () -> Double

    /// Creates a cache.
    /// - Parameters:
    ///   - costLimit: the most bytes of pixels the cache holds; ``defaultCostLimit()`` by default.
    ///   - countLimit: the most entries the cache holds; unlimited (`Int.max`) by default.
    public convenience init(costLimit: Int = ImageCache.defaultCostLimit(), countLimit: Int = .max) {
        self.init(costLimit: costLimit, countLimit: countLimit, clock: ImageCache.monotonicSeconds)
    }

    /// Creates a cache that reads time from `clock` (monotonic seconds): for tests.
    init(costLimit: Int, countLimit: Int, clock: @escaping @Sendable () -> Double) {
        state = Locked(State(costLimit: max(0, costLimit), countLimit: max(0, countLimit)))
        now = clock
        MemoryPressureMonitor.shared.register(self)
    }

    /// The default ``costLimit``: 20 % of the memory available to the process, at most 512 MiB
    /// (10 % when that memory is 512 MiB or less, as Nuke does).
    ///
    /// "Available" is the physical memory, or the container's limit when the process runs in a
    /// cgroup with a lower memory limit (Docker, Kubernetes), so a 1 GiB container gets a
    /// 204 MiB cache, not a fifth of the host. Computed once per process.
    public static func defaultCostLimit() -> Int { computedDefaultCostLimit }

    private static let computedDefaultCostLimit: Int = {
        let mebibyte: UInt64 = 1 << 20
        var memory = ProcessInfo.processInfo.physicalMemory
        if let limit = SystemMemory.cgroupLimit(), limit > 0 { memory = min(memory, limit) }
        let ratio: Double = memory <= 512 * mebibyte ? 0.1 : 0.2
        return Int(min(Double(memory) * ratio, Double(512 * mebibyte)))
    }()

    // MARK: Limits

    /// The most bytes of pixels the cache holds. Lowering it evicts least recently used entries
    /// at once.
    public var costLimit: Int {
        get { state.withLock { $0.costLimit } }
        set { mutate { $0.costLimit = max(0, newValue) } }
    }

    /// The most entries the cache holds (`Int.max` by default). Lowering it evicts least
    /// recently used entries at once.
    public var countLimit: Int {
        get { state.withLock { $0.countLimit } }
        set { mutate { $0.countLimit = max(0, newValue) } }
    }

    /// The largest share of ``costLimit`` one entry may cost, from 0 to 1; 0.1 by default (as
    /// Nuke). Entries above it are not stored. Changing it affects later insertions only.
    public var entryCostLimit: Double {
        get { state.withLock { $0.entryCostLimit } }
        set { state.withLock { $0.entryCostLimit = newValue } }
    }

    /// How long an entry stays valid after it is stored, in seconds; `nil` (the default) for
    /// forever. Each entry keeps the `ttl` in force when it was stored.
    public var ttl: TimeInterval? {
        get { state.withLock { $0.ttl } }
        set { state.withLock { $0.ttl = newValue } }
    }

    /// The sum of the costs of the stored entries, in bytes (expired ones included until they go).
    public var totalCost: Int { state.withLock { $0.storage.totalCost } }

    /// The number of stored entries (expired ones included until they go).
    public var totalCount: Int { state.withLock { $0.storage.count } }

    // MARK: Access

    /// The entry for `key`, or `nil` when absent or expired; a hit makes the entry the most
    /// recently used. Setting an entry stores it as the most recently used (subject to
    /// ``entryCostLimit``) and evicts what no longer fits; setting `nil` removes the entry.
    public subscript(key: ImageCacheKey) -> CachedImage? {
        get {
            let (value, expired) = state.withLock { state -> (CachedImage?, CachedImage?) in
                var expired: CachedImage?
                let value = state.storage.value(for: key, now: now, expired: &expired)
                return (value, expired)
            }
            withExtendedLifetime(expired) {}
            return value
        }
        set {
            if let newValue {
                store(newValue, for: key)
            } else {
                removeValue(for: key)
            }
        }
    }

    /// Removes the entry for `key` and returns it (`nil` when there was none).
    @discardableResult
    public func removeValue(for key: ImageCacheKey) -> CachedImage? {
        state.withLock { $0.storage.removeValue(for: key) }
    }

    /// Removes every entry.
    public func removeAll() {
        let removed = state.withLock { $0.storage.removeAll() }
        withExtendedLifetime(removed) {}
    }

    /// Evicts least recently used entries until ``totalCost`` is at most `cost` bytes.
    public func trim(toCost cost: Int) {
        let removed = state.withLock { state -> [CachedImage] in
            var removed: [CachedImage] = []
            state.storage.trim(toCost: cost, count: .max, into: &removed)
            return removed
        }
        withExtendedLifetime(removed) {}
    }

    /// Evicts least recently used entries until ``totalCount`` is at most `count`.
    public func trim(toCount count: Int) {
        let removed = state.withLock { state -> [CachedImage] in
            var removed: [CachedImage] = []
            state.storage.trim(toCost: .max, count: count, into: &removed)
            return removed
        }
        withExtendedLifetime(removed) {}
    }

    /// Keys from most to least recently used, for tests (O(n); does not change the order).
    var keysByRecency: [ImageCacheKey] { state.withLock { $0.storage.keysByRecency } }

    private func store(_ entry: CachedImage, for key: ImageCacheKey) {
        let cost = entry.cost
        // Values leaving the cache are carried out of the lock and released here.
        let (replaced, evicted) = state.withLock { state -> (CachedImage?, [CachedImage]) in
            var evicted: [CachedImage] = []
            guard Double(cost) <= state.maximumEntryCost else {
                return (state.storage.removeValue(for: key), evicted)
            }
            let expiry = state.ttl.map { now() + $0 } ?? .infinity
            let replaced = state.storage.set(entry, for: key, cost: cost, expiry: expiry)
            state.trim(into: &evicted)
            return (replaced, evicted)
        }
        withExtendedLifetime((replaced, evicted)) {}
    }

    private func mutate(_ body: (inout State) -> Void) {
        let evicted = state.withLock { state -> [CachedImage] in
            body(&state)
            var evicted: [CachedImage] = []
            state.trim(into: &evicted)
            return evicted
        }
        withExtendedLifetime(evicted) {}
    }

    private static let monotonicSeconds: @Sendable () -> Double = {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

extension ImageCache: MemoryPressureTrimming {
    /// Keeps about half of ``totalCost`` at a warning, nothing at critical pressure.
    public func trim(for level: MemoryPressureMonitor.Level) {
        trim(toCost: level.costToKeep(of: totalCost))
    }
}
