import Foundation

/// A cache of encoded data (original downloads, encoded processed images) keyed by string, as
/// ``ImagePipeline`` uses it. ``DataCache`` is the built-in disk implementation.
///
/// Implementations must be thread-safe. Reads are synchronous; writes may be deferred, but a read
/// that follows a write (on any thread) must see it.
public protocol DataCaching: AnyObject, Sendable {
    /// The data stored for `key`, or `nil`.
    func cachedData(for key: String) -> Data?

    /// Whether data is stored for `key` (without reading it all).
    func containsData(for key: String) -> Bool

    /// Stores `data` for `key`, replacing what was there. A pipeline calls this from its graph
    /// (see ``ImagePipeline``): return quickly and write in the background, as ``DataCache`` does.
    func storeData(_ data: Data, for key: String)

    /// Removes the data stored for `key`.
    func removeData(for key: String)

    /// Removes everything.
    func removeAll()
}
