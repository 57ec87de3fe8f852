/// A memory cache of decoded images, as ``ImagePipeline`` uses it. ``ImageCache`` is the
/// built-in implementation; plug in your own by conforming to this protocol.
///
/// Implementations must be thread-safe: the pipeline reads and writes from many threads at once,
/// and a read should be fast (it happens on the caller's thread before any work is scheduled).
public protocol ImageCaching: AnyObject, Sendable {
    /// The entry for `key`, or `nil`. Setting `nil` removes the entry.
    subscript(key: ImageCacheKey) -> CachedImage? { get set }

    /// Removes every entry.
    func removeAll()

    /// Evicts entries (least recently used first) until the cache holds at most `cost` bytes.
    /// A default implementation empties the cache when `cost` is 0 or less and otherwise does
    /// nothing; ``ImageCache`` evicts exactly.
    func trim(toCost cost: Int)
}

extension ImageCaching {
    /// Empties the cache when `cost` is 0 or less; otherwise does nothing (a cache that knows its
    /// costs implements this itself).
    public func trim(toCost cost: Int) {
        if cost <= 0 { removeAll() }
    }
}
