import Comet
import Foundation
import Tracing

extension ResultMaker {
    /// What a result that may keep an animation is made from.
    enum AnimationLoad: Sendable {
        /// The source is still (or no GIF or WebP): the plan's request over its fetched bytes.
        case still(ImageRequest)
        /// The source's frames, each through the frame plan's processors.
        case frames(AnimatedImage)
    }

    /// Fetches `source` (unless its bytes were `fetched` already, under the pipeline name given
    /// with them) and reads its container: a still source gives `plan`'s request over the
    /// fetched bytes (the decode-time reduction kept); an animated GIF or WebP is checked
    /// against the request's `limits` (``SourceLimits/check(_:)-(AnimationHeader)``) from its
    /// header, before any frame is decoded (`422` beyond them), then every frame is decoded and goes through `framePlan`'s
    /// processors, its duration kept. The fetch and decode run under `context` (the request's
    /// `image` span), and `record` gets the frame count and the frames' size as span attributes.
    func loadKeepingAnimation(
        source: URL, fetched: (data: Data, id: String)? = nil, plan: ThumbnailPlan, framePlan: ThumbnailPlan,
        limits: SourceLimits, context: ServiceContext? = nil, record: (String, Int) -> Void = { _, _ in }
    ) async throws -> AnimationLoad {
        do {
            let data: Data, id: String
            if let fetched {
                (data, id) = fetched
            } else {
                var fetch = ImageRequest(url: source)
                if let context { fetch.userInfo[.serviceContext] = context }
                (data, id) = (try await pipeline.data(for: fetch).0, Self.fetchedID(of: source))
            }
            guard let header = AnimationHeader(data), header.isAnimated else {
                return .still(plan.imageRequest(id: id, data: data))
            }
            record("comet.frames", header.frameCount)
            try limits.check(header)
            var decode = ImageRequest(id: id, data: { data }, options: [.decodeAnimation])
            if let context { decode.userInfo[.serviceContext] = context }
            let response = try await pipeline.imageTask(with: decode).response
            guard let animation = response.animation, animation.frames.count > 1 else {
                return .still(plan.imageRequest(id: id, data: data))
            }
            let processors = framePlan.processors
            let frames = try await Self.offCooperativePool {
                try animation.frames.map { frame in
                    let image = try processors.reduce(frame.image) { try $1.process($0) }
                    return AnimatedImage.Frame(image: image, duration: frame.duration)
                }
            }
            let size = (frames[0].image.width, frames[0].image.height)
            guard frames.allSatisfy({ ($0.image.width, $0.image.height) == size }) else {
                throw ServiceError.internal("the frames of the animation came out in different sizes")
            }
            record("comet.image.width", size.0)
            record("comet.image.height", size.1)
            return .frames(
                AnimatedImage(type: animation.type, frames: frames, loopCount: animation.loopCount, data: Data()))
        } catch let error as ImagePipeline.Error where error.isCancellation {
            throw CancellationError()
        }
    }
}
