import Comet
import Foundation

/// The memory level of one format: least recently used values go first when the count or the
/// cost limit is exceeded. Thread-safe (one lock, never held during a callback).
final class MemoryCache<T>: @unchecked Sendable {
    // Safe: every stored property is read and written under `lock`; values are only handed out.

    private final class Node {
        let key: String
        var value: T
        var cost: Int
        var older: Node?
        weak var newer: Node?
        init(key: String, value: T, cost: Int) { self.key = key; self.value = value; self.cost = cost }
    }

    let countLimit: Int
    let costLimit: Int
    private let lock = NSLock()
    private var nodes: [String: Node] = [:]
    private var newest: Node?
    private var oldest: Node?
    private var totalCost = 0

    /// Linux has no memory-pressure notification to evict on (Haneke relied on NSCache's), so
    /// each format keeps at most `countLimit` values and `costLimit` bytes (images by their bitmap
    /// size, data and strings by their length).
    init(countLimit: Int = 1000, costLimit: Int = ImageCache.defaultCostLimit()) {
        self.countLimit = countLimit
        self.costLimit = costLimit
    }

    var count: Int { lock.withLock { nodes.count } }

    func value(forKey key: String) -> T? {
        lock.withLock {
            guard let node = nodes[key] else { return nil }
            unlink(node)
            pushNewest(node)
            return node.value
        }
    }

    func set(_ value: T, forKey key: String) {
        let cost = Self.cost(of: value)
        lock.withLock {
            if let node = nodes.removeValue(forKey: key) {
                unlink(node)
                totalCost -= node.cost
            }
            let node = Node(key: key, value: value, cost: cost)
            nodes[key] = node
            pushNewest(node)
            totalCost += cost
            evict(whileOver: costLimit, keepingOne: true)
        }
    }

    /// Removes the oldest values while over `countLimit` or `cost` (caller holds the lock).
    private func evict(whileOver cost: Int, keepingOne: Bool) {
        while nodes.count > countLimit || (totalCost > cost && nodes.count > (keepingOne ? 1 : 0)), let victim = oldest
        {
            unlink(victim)
            nodes[victim.key] = nil
            totalCost -= victim.cost
        }
    }

    func removeValue(forKey key: String) {
        lock.withLock {
            guard let node = nodes.removeValue(forKey: key) else { return }
            unlink(node)
            totalCost -= node.cost
        }
    }

    func removeAll() {
        lock.withLock {
            nodes = [:]
            newest = nil
            oldest = nil
            totalCost = 0
        }
    }

    private func pushNewest(_ node: Node) {
        node.older = newest
        node.newer = nil
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }

    private func unlink(_ node: Node) {
        if let newer = node.newer { newer.older = node.older } else if newest === node { newest = node.older }
        if let older = node.older { older.newer = node.newer } else if oldest === node { oldest = node.newer }
        node.older = nil
        node.newer = nil
    }

    private static func cost(of value: T) -> Int {
        switch value {
        case let image as Imaging.Image: image.cost
        case let data as Data: data.count
        case let string as String: string.utf8.count
        default: 1
        }
    }
}

extension MemoryCache {
    /// Keeps about half of the cost at a warning, nothing at critical pressure.
    func trim(for level: MemoryPressureMonitor.Level) {
        lock.withLock { evict(whileOver: level.costToKeep(of: totalCost), keepingOne: false) }
    }
}
