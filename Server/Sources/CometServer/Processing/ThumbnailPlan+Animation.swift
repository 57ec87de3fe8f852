import Comet
import Foundation

extension ThumbnailPlan {
    /// The pipeline request for source bytes already fetched (`data`), named `id` for the
    /// pipeline's coalescing: the same steps and decode-time reduction as
    /// ``imageRequest(source:)`` gives.
    public func imageRequest(id: String, data: Data) -> ImageRequest {
        let options: ImageRequest.Options = keepsColorProfile ? [.keepOriginalColors] : []
        if let thumbnail = decodeTimeReduction {
            return ImageRequest(
                id: id, data: { data }, processors: Array(processors.dropFirst()), options: options,
                thumbnail: thumbnail)
        }
        return ImageRequest(id: id, data: { data }, processors: processors, options: options)
    }
}

extension ThumbnailPlan.Encoding {
    /// Encodes the frames of `animation` as an animated `format`: WebP at the quality asked for
    /// (100 lossless; `mb` searched as for a still WebP, stopped early before `deadline`), or GIF
    /// (no quality). Each frame keeps its duration, and the animation its loop count. Throws for
    /// a format without animations.
    public func encode(
        _ animation: AnimatedImage, as format: OutputFormat, deadline: ContinuousClock.Instant? = nil
    ) throws -> [UInt8] {
        switch format {
        case .gif:
            return [UInt8](try ImageEncoders.gif(animation))
        case .webp:
            return try fitting(format: .webp, deadline: deadline) { quality in
                let quality = quality ?? OutputFormat.webp.defaultQuality!
                return [UInt8](
                    try ImageEncoders.animatedWebP(animation, quality: Double(quality) / 100, lossless: quality == 100))
            }
        case .jpeg, .png, .avif:
            throw ServiceError.internal("\(format.rawValue) has no animations")
        }
    }
}
