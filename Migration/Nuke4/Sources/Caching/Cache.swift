import class Comet.MemoryPressureMonitor
import protocol Comet.MemoryPressureTrimming
import Foundation

/// Nuke 4's memory cache: least recently used images are evicted first, to stay within a total
/// cost and a count.
///
/// Reading an image makes it the most recent. Storing one makes it the most recent (replacing
/// an existing entry for the key in place — Nuke 4 added a second entry, a bug the shim does not
/// copy), then trims to ``costLimit``, then to ``countLimit``, from the least recent end.
/// Storing `nil` removes. Changing a limit trims at once. Thread-safe (one lock; ``cost`` is
/// called outside it).
public final class Cache: Caching, Sendable {
    private final class Node {
        let key: AnyHashable
        var image: Image
        var cost: Int
        var newer: Node?
        weak var older: Node?
        init(key: AnyHashable, image: Image, cost: Int) {
            self.key = key
            self.image = image
            self.cost = cost
        }
    }

    /// The index, the list (least recent first) and the limits, all behind one lock.
    private struct List {
        var nodes: [AnyHashable: Node] = [:]
        var oldest: Node?
        var newest: Node?
        var limits: (cost: Int, count: Int)
        var total = 0
        var costFunction: (Image) -> Int = { $0.cost }

        mutating func trim(cost: Int, count: Int) {
            while total > cost, let node = oldest { remove(node) }
            while nodes.count > count, let node = oldest { remove(node) }
        }

        mutating func append(_ node: Node) {
            node.older = newest
            node.newer = nil
            newest?.newer = node
            newest = node
            if oldest == nil { oldest = node }
        }

        mutating func unlink(_ node: Node) {
            let older = node.older
            let newer = node.newer
            if let older { older.newer = newer } else { oldest = newer }
            if let newer { newer.older = older } else { newest = older }
            node.older = nil
            node.newer = nil
        }

        mutating func moveToNewest(_ node: Node) {
            guard newest !== node else { return }
            unlink(node)
            append(node)
        }

        mutating func remove(_ node: Node) {
            unlink(node)
            nodes[node.key] = nil
            total -= node.cost
        }

        mutating func removeAll() {
            var node = oldest
            while let current = node {
                node = current.newer
                current.newer = nil
            }
            nodes.removeAll()
            oldest = nil
            newest = nil
            total = 0
        }
    }

    private let list: LockedValue<List>

    /// The largest total cost kept; lowering it trims at once.
    public var costLimit: Int {
        get { list.withLock { $0.limits.cost } }
        set {
            list.withLock { list in
                list.limits.cost = newValue
                list.trim(cost: newValue, count: list.limits.count)
            }
        }
    }

    /// The largest number of images kept; lowering it trims at once. Default `Int.max`.
    public var countLimit: Int {
        get { list.withLock { $0.limits.count } }
        set {
            list.withLock { list in
                list.limits.count = newValue
                list.trim(cost: list.limits.cost, count: newValue)
            }
        }
    }

    /// The sum of the costs of the stored images.
    public var totalCost: Int { list.withLock { $0.total } }

    /// The number of stored images.
    public var totalCount: Int { list.withLock { $0.nodes.count } }

    /// The cost of an image. Default: its bytes in memory (`image.cost`).
    public var cost: (Image) -> Int {
        get { list.withLock { $0.costFunction } }
        set { list.withLock { $0.costFunction = newValue } }
    }

    /// Creates a cache. Defaults: ``defaultCostLimit()`` and no count limit.
    public init(costLimit: Int = Cache.defaultCostLimit(), countLimit: Int = Int.max) {
        self.list = LockedValue(List(limits: (costLimit, countLimit)))
        MemoryPressureMonitor.shared.register(self)
    }

    /// 10% of the physical memory when it is 512 MB or less, else 20%.
    public static func defaultCostLimit() -> Int {
        let memory = ProcessInfo.processInfo.physicalMemory
        let limit = memory <= 512 << 20 ? memory / 10 : memory / 5
        return limit > UInt64(Int.max) ? Int.max : Int(limit)
    }

    /// The image under `key` (which becomes the most recent); setting stores or, with `nil`,
    /// removes it.
    public subscript(key: AnyHashable) -> Image? {
        get {
            list.withLock { list in
                guard let node = list.nodes[key] else { return nil }
                list.moveToNewest(node)
                return node.image
            }
        }
        set {
            guard let image = newValue else {
                list.withLock { list in if let node = list.nodes[key] { list.remove(node) } }
                return
            }
            let cost = self.cost(image)
            list.withLock { list in
                if let node = list.nodes[key] {
                    list.total += cost - node.cost
                    node.image = image
                    node.cost = cost
                    list.moveToNewest(node)
                } else {
                    let node = Node(key: key, image: image, cost: cost)
                    list.nodes[key] = node
                    list.total += cost
                    list.append(node)
                }
                list.trim(cost: list.limits.cost, count: list.limits.count)
            }
        }
    }

    /// Removes every image.
    public func removeAll() {
        list.withLock { $0.removeAll() }
    }

    /// Evicts least recent images until the total cost is at most `limit`.
    public func trim(toCost limit: Int) {
        list.withLock { $0.trim(cost: limit, count: Int.max) }
    }

    /// Evicts least recent images until at most `limit` remain.
    public func trim(toCount limit: Int) {
        list.withLock { $0.trim(cost: Int.max, count: limit) }
    }

    private static let sharedCache = LockedValue(Cache())

    /// The cache `Loader.shared` and `Manager.shared` use. Settable; thread-safe.
    public static var shared: Cache {
        get { sharedCache.current }
        set { sharedCache.current = newValue }
    }
}

extension Cache: MemoryPressureTrimming {
    /// Keeps about half of ``totalCost`` at a warning, nothing at critical pressure (Linux's
    /// counterpart of Nuke's memory-warning purge).
    public func trim(for level: MemoryPressureMonitor.Level) {
        trim(toCost: level.costToKeep(of: totalCost))
    }
}
