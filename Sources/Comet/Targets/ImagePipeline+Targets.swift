import Foundation

extension ImagePipeline {
    /// Loads `request` into `target`, reuse-safely: whatever the target was loading is cancelled
    /// first (cell reuse), and a result of an older load is never displayed.
    ///
    /// - A memory-cache hit is displayed synchronously, before this returns (no placeholder, no
    ///   transition), and `nil` is returned.
    /// - Otherwise the placeholder (or `nil`, clearing the target) is displayed synchronously,
    ///   previews as they arrive if ``ImageLoadingOptions/showsPreviews``, then the final image
    ///   (through ``ImageLoadingOptions/transition`` if set) — or the failure image if the load
    ///   fails. A cancelled load displays nothing more.
    /// - If the target is released, its load is cancelled (noticed within a fraction of a second).
    ///
    /// See ``ImageDisplaying`` for the threads the target is called on.
    ///
    /// - Parameters:
    ///   - request: what to load.
    ///   - options: the placeholder, failure image, transition and previews (see
    ///     ``ImageLoadingOptions``).
    ///   - target: what displays the image.
    ///   - completion: Called once with the load's result after it was displayed — on the
    ///     callback queue, or synchronously for a memory-cache hit; with
    ///     ``Error/cancelled(request:)`` when the load was replaced, cancelled or its target released.
    /// - Returns: The task, or `nil` on a memory-cache hit.
    @discardableResult
    public func loadImage(
        with request: ImageRequest,
        options: ImageLoadingOptions = ImageLoadingOptions(),
        into target: any ImageDisplaying,
        completion: (@Sendable (Result<ImageResponse, Error>) -> Void)? = nil
    ) -> ImageTask? {
        let registry = ImageTargetRegistry.shared
        let id = ObjectIdentifier(target)
        let token = registry.begin(target)

        if let cached = memoryCacheHit(for: request) {
            registry.perform(.init(token: token, image: cached.image, isPreview: false, transition: nil), for: id)
            registry.finish(id, token: token)
            completion?(.success(ImageResponse(memoryCacheHit: cached, request: request)))
            return nil
        }

        registry.perform(.init(token: token, image: options.placeholder, isPreview: false, transition: nil), for: id)
        var progress: (@Sendable (ImageResponse?, ImageTask.Progress) -> Void)?
        if options.showsPreviews && configuration.isProgressiveDecodingEnabled {
            progress = { preview, _ in
                guard let preview else { return }
                registry.perform(.init(token: token, image: preview.image, isPreview: true, transition: nil), for: id)
            }
        }
        let task = loadImage(with: request, progress: progress) { result in
            switch result {
            case .success(let response):
                registry.perform(
                    .init(
                        token: token, image: response.image, isPreview: false,
                        transition: options.transition), for: id)
            case .failure(let error):
                if !error.isCancellation, let failureImage = options.failureImage {
                    registry.perform(
                        .init(
                            token: token, image: failureImage, isPreview: false,
                            transition: options.transition), for: id)
                }
            }
            registry.finish(id, token: token)
            completion?(result)
        }
        registry.attach(task, to: id, token: token)
        return task
    }

    /// Loads the image at `url` into `target`. See
    /// ``loadImage(with:options:into:completion:)-(ImageRequest,_,_,_)``.
    @discardableResult
    public func loadImage(
        with url: URL,
        options: ImageLoadingOptions = ImageLoadingOptions(),
        into target: any ImageDisplaying,
        completion: (@Sendable (Result<ImageResponse, Error>) -> Void)? = nil
    ) -> ImageTask? {
        loadImage(with: ImageRequest(url: url), options: options, into: target, completion: completion)
    }

    /// Cancels what `target` is loading (through any pipeline); nothing more of that load is
    /// displayed. The target keeps what it shows.
    public func cancelRequest(for target: any ImageDisplaying) {
        ImageTargetRegistry.shared.cancel(target)
    }
}
