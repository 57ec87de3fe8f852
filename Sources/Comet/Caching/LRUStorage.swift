/// The bookkeeping behind ``ImageCache``: a dictionary from key to slot plus an intrusive doubly
/// linked list threaded through an array of slots, most recently used at the head.
///
/// Every operation is O(1) (amortised, for the dictionary). Slots are reused through a free list,
/// so steady-state traffic allocates nothing per entry beyond the dictionary's own storage.
/// Not thread-safe: ``ImageCache`` keeps it inside a lock. Removing methods return the values
/// they drop so the owner can release them (and free big pixel buffers) after unlocking.
struct LRUStorage<Key: Hashable, Value> {
    private struct Slot {
        var key: Key?
        var value: Value?
        var cost: Int
        /// Monotonic time in seconds after which the entry is expired; `.infinity` for never.
        var expiry: Double
        var previous: Int
        var next: Int
    }

    private var indices: [Key: Int] = [:]
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Most recently used slot, or -1 when empty.
    private var head = -1
    /// Least recently used slot, or -1 when empty.
    private var tail = -1

    /// The sum of the costs of the stored entries.
    private(set) var totalCost = 0

    /// The number of stored entries.
    var count: Int { indices.count }

    /// The value for `key`, made most recently used; `nil` when absent or expired at `now`
    /// (an expired entry is removed and returned through `expired` for release outside a lock).
    mutating func value(for key: Key, now: () -> Double, expired: inout Value?) -> Value? {
        guard let index = indices[key] else { return nil }
        let expiry = slots[index].expiry
        if expiry != .infinity, expiry <= now() {
            expired = remove(at: index)
            return nil
        }
        moveToHead(index)
        return slots[index].value
    }

    /// Whether `key` is stored (expired entries included); does not change the order.
    func contains(_ key: Key) -> Bool { indices[key] != nil }

    /// Stores `value` as the most recently used entry; returns the value it replaced.
    @discardableResult
    mutating func set(_ value: Value, for key: Key, cost: Int, expiry: Double) -> Value? {
        if let index = indices[key] {
            let old = slots[index].value
            totalCost += cost - slots[index].cost
            slots[index].value = value
            slots[index].cost = cost
            slots[index].expiry = expiry
            moveToHead(index)
            return old
        }
        let slot = Slot(key: key, value: value, cost: cost, expiry: expiry, previous: -1, next: -1)
        let index: Int
        if let reused = freeSlots.popLast() {
            index = reused
            slots[index] = slot
        } else {
            index = slots.count
            slots.append(slot)
        }
        indices[key] = index
        totalCost += cost
        linkAtHead(index)
        return nil
    }

    /// Removes the entry for `key`; returns its value.
    @discardableResult
    mutating func removeValue(for key: Key) -> Value? {
        guard let index = indices[key] else { return nil }
        return remove(at: index)
    }

    /// Removes least recently used entries until `totalCost <= cost` and `count <= count`,
    /// appending their values to `removed`.
    mutating func trim(toCost cost: Int, count maxCount: Int, into removed: inout [Value]) {
        while tail != -1, totalCost > cost || indices.count > maxCount {
            if let value = remove(at: tail) { removed.append(value) }
        }
    }

    /// Removes everything; returns the values (for release outside a lock).
    mutating func removeAll() -> [Value] {
        let values = slots.compactMap(\.value)
        indices = [:]
        slots = []
        freeSlots = []
        head = -1
        tail = -1
        totalCost = 0
        return values
    }

    /// Keys from most to least recently used (for tests and debugging; O(n)).
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var index = head
        while index != -1 {
            if let key = slots[index].key { keys.append(key) }
            index = slots[index].next
        }
        return keys
    }

    private mutating func remove(at index: Int) -> Value? {
        unlink(index)
        if let key = slots[index].key { indices[key] = nil }
        let value = slots[index].value
        totalCost -= slots[index].cost
        slots[index].key = nil
        slots[index].value = nil
        slots[index].cost = 0
        freeSlots.append(index)
        return value
    }

    private mutating func moveToHead(_ index: Int) {
        guard head != index else { return }
        unlink(index)
        linkAtHead(index)
    }

    private mutating func linkAtHead(_ index: Int) {
        slots[index].previous = -1
        slots[index].next = head
        if head != -1 { slots[head].previous = index }
        head = index
        if tail == -1 { tail = index }
    }

    private mutating func unlink(_ index: Int) {
        let previous = slots[index].previous
        let next = slots[index].next
        if previous != -1 { slots[previous].next = next } else { head = next }
        if next != -1 { slots[next].previous = previous } else { tail = previous }
        slots[index].previous = -1
        slots[index].next = -1
    }
}
