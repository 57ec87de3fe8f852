import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where bitmaps of a megabyte or more live: mappings of their own, given back to the system
/// when the image is freed, except the last few, which the next bitmap of the same size reuses.
///
/// Why not `malloc`: once glibc has freed one large block its mmap threshold rises, later
/// bitmaps come from its heaps, and freed heap memory stays with the process. A pipeline that
/// decodes photo after photo then holds tens of megabytes it no longer uses (measured: 62 MB
/// above the start for 200 full decodes of 1024×768 JPEGs, against 24 MB with every bitmap
/// mapped). Why keep a few: a fresh mapping page-faults on every first write, which nearly
/// doubled the cost of those decodes (2.6 → 4.8 ms); a reused one is already resident.
///
/// Thread-safe (one small lock around the kept blocks).
final class BitmapAllocator: Sendable {
    /// The allocator of every ``Image``'s large bitmaps.
    static let shared = BitmapAllocator()

    /// Bitmaps this large or larger are mapped; smaller ones use the ordinary allocator.
    static let threshold = 1 << 20
    /// How many freed mappings are kept for reuse (2 unless made for a test).
    /// The largest mapping kept for reuse (a freed 8000×6000 bitmap goes straight back).
    static let keptBlockMaxLength = 32 << 20

    private struct Block: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let length: Int
    }

    let keptBlockLimit: Int
    private let kept = Locked<[Block]>([])
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The mapping's length for a bitmap of `byteCount` bytes (whole pages).
    init(keptBlockLimit: Int = 2) {
        self.keptBlockLimit = keptBlockLimit
    }

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

    /// Frees a block from ``allocate(byteCount:)``: kept for reuse when there is room (the oldest
    /// kept block is unmapped to make it), else unmapped.
    func release(_ base: UnsafeMutableRawPointer, byteCount: Int) {
        let block = Block(base: base, length: Self.mappedLength(for: byteCount))
        guard block.length <= Self.keptBlockMaxLength else {
            munmap(block.base, block.length)
            return
        }
        let evicted = kept.withLock { blocks -> Block? in
            blocks.append(block)
            return blocks.count > keptBlockLimit ? blocks.removeFirst() : nil
        }
        if let evicted { munmap(evicted.base, evicted.length) }
    }

    /// How many freed mappings are kept now (tests).
    var keptBlockCount: Int { kept.withLock { $0.count } }
}
