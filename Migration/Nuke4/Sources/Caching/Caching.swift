import Foundation

/// A memory cache of images. Implementations must be thread-safe.
public protocol Caching: AnyObject {
    /// The image stored under `key`; setting `nil` removes it.
    subscript(key: AnyHashable) -> Image? { get set }
}

extension Caching {
    /// The image stored for `request`, under ``Request/cacheKey(for:)``; setting `nil` removes it.
    public subscript(request: Request) -> Image? {
        get { self[Request.cacheKey(for: request)] }
        set { self[Request.cacheKey(for: request)] = newValue }
    }
}
