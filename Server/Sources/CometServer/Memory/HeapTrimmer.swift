import CMalloc
import ServiceLifecycle

/// Hands the memory glibc's allocator holds free back to the system, every ``interval``.
///
/// Why: the server's threads (SwiftNIO's event loops, Swift concurrency's pool, Dispatch workers,
/// the Redis threads) each get one of glibc's heaps, and a heap keeps what its thread freed for
/// that thread's next allocation. Under the soak the bytes in use stay flat while the heaps'
/// free bytes grow, and the resident memory with them (BENCHMARKS.md, the soak).
/// `malloc_trim(0)` releases the free pages of every heap.
///
/// A swift-service-lifecycle `Service`: it ends at the group's graceful shutdown. Does nothing
/// where glibc is not the allocator.
public struct HeapTrimmer: Service {
    /// Time between two trims.
    public let interval: Duration

    /// Creates a trimmer; by default every 10 seconds.
    public init(interval: Duration = .seconds(10)) {
        self.interval = interval
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                _ = Self.trim()
            }
        }
    }

    /// Makes glibc's allocator serve every allocation of `bytes` or more with a mapping of its
    /// own, unmapped when freed, instead of from its heaps; `false` where glibc is not the
    /// allocator or refuses the value. Call it once, at startup.
    ///
    /// Why: glibc's default threshold moves up to the size of the largest mapped block freed
    /// (up to 32 MiB), so a server's request-sized buffers (source bodies, encoded results,
    /// bitmaps) soon come from the heaps, between small long-lived blocks; the heaps' extents
    /// then grow with fragmentation that no trim can give back (`make soak` with glibc's
    /// default fails for it; BENCHMARKS.md has the figures).
    @discardableResult
    public static func mapAllocations(ofAtLeast bytes: Int) -> Bool {
        #if canImport(Glibc)
            return mallopt(M_MMAP_THRESHOLD, Int32(clamping: bytes)) == 1
        #else
            return false
        #endif
    }

    /// Makes glibc's allocator keep at most `count` heaps (arenas), shared by all threads;
    /// `false` where glibc is not the allocator or refuses the value. Call it once, at startup.
    ///
    /// Why: glibc gives a thread that finds the heaps busy a new one, up to eight per core, and
    /// a heap, once made, lives as long as the process with the memory its peak needed. The
    /// Dispatch threads that overload bursts start took new heaps under `make soak`: the
    /// resident memory rose a step with each (13 → 16 threads, +13% after the warm-up).
    @discardableResult
    public static func limitHeaps(to count: Int) -> Bool {
        #if canImport(Glibc)
            return mallopt(M_ARENA_MAX, Int32(clamping: count)) == 1
        #else
            return false
        #endif
    }

    /// Bytes the allocator holds in blocks mapped on their own (glibc's `hblkhd`); 0 where glibc
    /// is not the allocator.
    public static var mappedBlockBytes: Int {
        #if canImport(Glibc)
            return Int(mallinfo2().hblkhd)
        #else
            return 0
        #endif
    }

    /// Releases the free memory of every heap now; `true` when some was released.
    @discardableResult
    public static func trim() -> Bool {
        #if canImport(Glibc)
            return malloc_trim(0) == 1
        #else
            return false
        #endif
    }
}
