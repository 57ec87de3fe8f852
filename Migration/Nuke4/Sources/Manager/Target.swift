import Foundation

/// The outcome a ``Manager`` hands to a target: the image or the error.
public typealias Response = PromiseResolution<Image>

/// Something that shows images (a view on Apple platforms; any object on Linux).
public protocol Target: AnyObject {
    /// Called with the outcome of the load bound to this target, on ``Nuke/callbackQueue``
    /// (or synchronously, on the caller's thread, for a memory-cache hit).
    func handle(response: Response, isFromMemoryCache: Bool)
}

/// Loads `url` into `target` with `Manager.shared`.
public func loadImage(with url: URL, into target: Target) {
    Manager.shared.loadImage(with: url, into: target)
}

/// Loads `request` into `target` with `Manager.shared`.
public func loadImage(with request: Request, into target: Target) {
    Manager.shared.loadImage(with: request, into: target)
}

/// Loads `url` for `target` with `Manager.shared`, calling `handler` with the outcome.
public func loadImage(with url: URL, into target: AnyObject, handler: @escaping Manager.Handler) {
    Manager.shared.loadImage(with: url, into: target, handler: handler)
}

/// Loads `request` for `target` with `Manager.shared`, calling `handler` with the outcome.
public func loadImage(with request: Request, into target: AnyObject, handler: @escaping Manager.Handler) {
    Manager.shared.loadImage(with: request, into: target, handler: handler)
}

/// Cancels the load `Manager.shared` has bound to `target`; its handler never runs.
public func cancelRequest(for target: AnyObject) {
    Manager.shared.cancelRequest(for: target)
}
