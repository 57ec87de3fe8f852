import Foundation

/// Produces the value of a key when the cache does not have it (``Cache/fetch(fetcher:formatName:failure:success:)``).
///
/// Subclass it and override ``fetch(failure:success:)`` and ``cancelFetch()``; ``NetworkFetcher``
/// and ``DiskFetcher`` are the built-in ones.
///
/// Not `Sendable` so that subclasses need no annotations: the cache hands a fetcher between
/// threads only inside its own boxes and calls it from one place at a time.
open class Fetcher<T: DataConvertible> {
    /// The cache key the fetched value is stored under.
    public let key: String

    /// A fetcher for `key`.
    public init(key: String) {
        self.key = key
    }

    /// Produces the value: calls exactly one of `failure` or `success` (on main for the built-in
    /// fetchers), or neither once cancelled. The base class cannot fetch anything: calling it
    /// is a programming error and stops the program.
    open func fetch(failure: @escaping (Error?) -> (), success: @escaping (T.Result) -> ()) {
        fatalError("Fetcher<\(T.self)> is abstract: subclass it and override fetch(failure:success:)")
    }

    /// Stops the fetch; neither closure is called afterwards. The base class has nothing to stop.
    open func cancelFetch() {}
}
