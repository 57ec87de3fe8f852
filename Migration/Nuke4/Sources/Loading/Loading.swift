import Foundation

/// Loads images: the job of ``Loader`` and ``Deduplicator``, and of your own test doubles.
public protocol Loading {
    /// Loads the image `request` describes; cancelling `token` cancels the load.
    func loadImage(with request: Request, token: CancellationToken?) -> Promise<Image>
}

extension Loading {
    /// Loads the image at `url` (a ``Request`` with the defaults).
    public func loadImage(with url: URL, token: CancellationToken? = nil) -> Promise<Image> {
        loadImage(with: Request(url: url), token: token)
    }
}
