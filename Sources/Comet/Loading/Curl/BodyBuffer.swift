import Foundation

/// The bytes of a body not yet passed on: one `malloc` block that grows geometrically, handed
/// to `Data` without a copy when it is passed on.
///
/// A non-copyable value (one owner frees its block); confined to the loader's poll thread.
struct BodyBuffer: ~Copyable {
    /// The most that a declared Content-Length reserves before the bytes arrive: a length is not
    /// trusted with a larger allocation.
    static let reservationLimit = 16 << 20

    private var start: UnsafeMutableRawPointer?
    private(set) var count = 0
    private var capacity = 0

    init() {}

    deinit { free(start) }

    var isEmpty: Bool { count == 0 }

    /// Makes room for `total` bytes in all.
    mutating func reserve(_ total: Int) {
        guard total > capacity else { return }
        guard let grown = realloc(start, total) else { return }
        start = grown
        capacity = total
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity {
            reserve(max(count + bytes.count, capacity * 2, 64 << 10))
            // Out of memory: the bytes cannot be kept, and a body missing them must not pass as
            // whole; the caller's size limit is far below what makes realloc fail in practice.
            guard count + bytes.count <= capacity else { fatalError("out of memory for a response body") }
        }
        (start! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// The bytes as `Data` (owning the block), leaving the buffer empty.
    mutating func take() -> Data {
        guard let block = start, count > 0 else { return Data() }
        // A block grown well past its contents gives the rest back (usually in place).
        let kept = capacity - count > count / 4 + 4096 ? (realloc(block, count) ?? block) : block
        let data = Data(bytesNoCopy: kept, count: count, deallocator: .free)
        start = nil
        count = 0
        capacity = 0
        return data
    }
}
