import Locking

/// The validators (`ETag`, else `Last-Modified`) the sources answered with, by source URL: what
/// the service's own ETags are made from. Bounded: forgets everything past ``capacity`` entries.
///
/// Thread-safe (a mutex).
public final class SourceValidatorCache: Sendable {
    private let entries = Locked<[String: String]>([:])
    /// The most URLs remembered. Default 100 000.
    public let capacity: Int

    /// Creates an empty cache.
    public init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Records the validator of `url`; `nil` forgets it.
    public func record(_ validator: String?, for url: String) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[url] = validator
        }
    }

    /// The last validator recorded for `url`.
    public func validator(for url: String) -> String? {
        entries.withLock { $0[url] }
    }
}
