import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-memory image cache keyed by identifier strings (AlamofireImage's `ImageCache`).
///
/// This is the legacy protocol; Comet's own `ImageCache` is a different type in the `Comet`
/// module, which this module does not re-export.
public protocol ImageCache: AnyObject, Sendable {
    /// Stores `image` under `identifier`, replacing any image stored there.
    func addImage(_ image: Image, withIdentifier identifier: String)
    /// Removes the image under `identifier`; `true` if there was one.
    @discardableResult
    func removeImageWithIdentifier(_ identifier: String) -> Bool
    /// Removes every image; `true` if there was any.
    @discardableResult
    func removeAllImages() -> Bool
    /// The image under `identifier`, if any.
    func imageWithIdentifier(_ identifier: String) -> Image?
}

/// An ``ImageCache`` that also keys images by URL request plus an optional identifier (a
/// filter's): the key is the request's URL string, then `-identifier` if there is one.
public protocol ImageRequestCache: ImageCache {
    /// Stores `image` for `request` (and `identifier`).
    func addImage(_ image: Image, forRequest request: URLRequest, withAdditionalIdentifier identifier: String?)
    /// Removes the image for `request` (and `identifier`); `true` if there was one.
    @discardableResult
    func removeImageForRequest(_ request: URLRequest, withAdditionalIdentifier identifier: String?) -> Bool
    /// The image for `request` (and `identifier`), if any.
    func imageForRequest(_ request: URLRequest, withAdditionalIdentifier identifier: String?) -> Image?
}
