import Locking
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where bitmaps of half a megabyte or more live: mappings of their own, given back to the
/// system when the image is freed, except the last few, which the next bitmap of the same size
/// reuses.
///
/// Why not `malloc`: once glibc has freed one large block its mmap threshold rises, later
/// bitmaps come from its heaps, and freed heap memory stays with the process. A pipeline that
/// decodes photo after photo then holds tens of megabytes it no longer uses. Why keep a few: a
/// fresh mapping page-faults on every first write, which nearly doubles the cost of a decode; a
/// reused one is already resident. Why half a megabyte, and four kept: a 1024×768 photo decoded
/// at 1/2 for a thumbnail is a 768 KB bitmap, and with two decoding workers several are in
/// flight; below the threshold malloc's heaps take them, and trim and fault them in again.
/// The figures are in BENCHMARKS.md ("Where the CPU goes").
///
/// Thread-safe (one small lock around the kept blocks).
final class BitmapAllocator: Sendable {
    /// The allocator of every ``Image``'s large bitmaps.
    static let shared = BitmapAllocator()

    /// Bitmaps this large or larger are mapped; smaller ones use the ordinary allocator.
    static let threshold = 512 << 10
    /// The largest mapping kept for reuse (a freed 8000×6000 bitmap goes straight back).
    static let keptBlockMaxLength = 16 << 20
    /// The most bytes kept in freed mappings at once: two full 1024×768 bitmaps, or ten of a
    /// photo decoded at 1/2 for a thumbnail.
    static let keptByteLimit = 8 << 20

    private struct Block: @unchecked Sendable {
        // @unchecked Sendable: a block belongs to one bitmap, or to `kept` under its lock.
        let base: UnsafeMutableRawPointer
        let length: Int
    }

    /// How many freed mappings are kept for reuse at most (within ``keptByteLimit``).
    let keptBlockLimit: Int
    private let kept = Locked<[Block]>([])
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Creates an allocator that keeps up to `keptBlockLimit` freed mappings (4 unless made for
    /// a test).
    init(keptBlockLimit: Int = 4) {
        self.keptBlockLimit = keptBlockLimit
    }

    /// The mapping's length for a bitmap of `byteCount` bytes (whole pages).
    static func mappedLength(for byteCount: Int) -> Int {
        (byteCount + pageSize - 1) / pageSize * pageSize
    }

    /// A page-aligned block of at least `byteCount` bytes: a kept mapping of the same length, or
    /// a new one. `nil` when the system refuses the mapping.
    func allocate(byteCount: Int) -> UnsafeMutableRawPointer? {
        let length = Self.mappedLength(for: byteCount)
        let reused = kept.withLock { blocks -> Block? in
            guard let index = blocks.lastIndex(where: { $0.length == length }) else { return nil }
            return blocks.remove(at: index)
        }
        if let reused { return reused.base }
        let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let base, base != MAP_FAILED else { return nil }
        return base
    }

    /// Frees a block from ``allocate(byteCount:)``: kept for reuse (the oldest kept blocks are
    /// unmapped to make room within ``keptBlockLimit`` and ``keptByteLimit``), or unmapped when
    /// it is larger than ``keptBlockMaxLength``.
    func release(_ base: UnsafeMutableRawPointer, byteCount: Int) {
        let block = Block(base: base, length: Self.mappedLength(for: byteCount))
        guard block.length <= Self.keptBlockMaxLength else {
            munmap(block.base, block.length)
            return
        }
        let evicted = kept.withLock { blocks -> [Block] in
            blocks.append(block)
            var evicted: [Block] = []
            while blocks.count > keptBlockLimit || blocks.reduce(0, { $0 + $1.length }) > Self.keptByteLimit {
                evicted.append(blocks.removeFirst())
            }
            return evicted
        }
        for block in evicted { munmap(block.base, block.length) }
    }

    /// How many freed mappings are kept now (tests).
    var keptBlockCount: Int { kept.withLock { $0.count } }
}
