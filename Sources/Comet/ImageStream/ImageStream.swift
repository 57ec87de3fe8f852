import Foundation

/// The image for one request as a `Streams` publisher: zero or more progressive previews,
/// then the final image, then `.finished` — or a failure.
///
/// Made by ``ImagePipeline/imageStream(with:)-(ImageRequest)``. Nothing is loaded until a
/// subscriber asks for a value; every subscription starts (and owns) its own ``ImageTask``, and
/// equal requests share their work inside the pipeline as usual.
///
/// ## Delivery
/// - **Memory-cache hit**: found while subscribing; the image (``ImageResponse/cacheType`` `.memory`)
///   and `.finished` are delivered synchronously, on the subscribing thread, as soon as the
///   subscriber demands a value — for `sink`, inside `subscribe`. No task is created.
/// - **Otherwise** values and the completion arrive on the pipeline's
///   ``ImagePipeline/Configuration/callbackQueue`` (keep it serial — the default is). Use
///   `receive(on:)` to move them elsewhere.
///
/// ## Demand (previews, when ``ImagePipeline/Configuration/isProgressiveDecodingEnabled``)
/// One unit of demand is always kept for the final image:
/// - the first non-zero demand starts the load;
/// - a preview is delivered only while the outstanding demand is at least 2 (or unlimited);
///   otherwise it is held back, replacing any older held preview, and delivered if demand later
///   reaches 2 before the final image arrives (a held preview is dropped when the final image
///   arrives);
/// - so a subscriber that asks for `.max(1)` gets exactly the final image, and the final image
///   is always delivered (followed by `.finished`) to a subscriber that asked for anything.
///
/// A failure (``ImagePipeline/Error``) is sent regardless of demand. Cancelling cancels the
/// subscription's ``ImageTask`` (work shared with other tasks continues for them). Nothing is
/// delivered after a cancel made on the callback queue or from inside `receive(_:)`; a cancel
/// from another thread stops everything not already being delivered at that moment.
public struct ImageStream: Publisher, Sendable {
    /// Image responses: previews (``ImageResponse/isPreview``) then the final image.
    public typealias Output = ImageResponse
    /// The reason loading failed.
    public typealias Failure = ImagePipeline.Error

    /// The request each subscription loads.
    public let request: ImageRequest
    /// The pipeline that loads it.
    public let pipeline: ImagePipeline

    /// Creates a stream of `request` loaded by `pipeline`.
    public init(request: ImageRequest, pipeline: ImagePipeline) {
        self.request = request
        self.pipeline = pipeline
    }

    /// Attaches `subscriber`: a memory-cache hit is answered from the cache (synchronously on
    /// demand); otherwise a load starts on the first demand.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == ImageResponse, S.Failure == ImagePipeline.Error {
        if let cached = pipeline.memoryCacheHit(for: request) {
            let response = ImageResponse(memoryCacheHit: cached, request: request)
            subscriber.receive(subscription: CachedImageSubscription(response: response, downstream: subscriber))
        } else {
            subscriber.receive(
                subscription: ImageStreamSubscription(request: request, pipeline: pipeline, downstream: subscriber))
        }
    }
}

extension ImagePipeline {
    /// A publisher of the image for `request` (previews, then the final image). See ``ImageStream``.
    public func imageStream(with request: ImageRequest) -> ImageStream {
        ImageStream(request: request, pipeline: self)
    }

    /// A publisher of the image at `url`. See ``ImageStream``.
    public func imageStream(with url: URL) -> ImageStream {
        ImageStream(request: ImageRequest(url: url), pipeline: self)
    }
}
