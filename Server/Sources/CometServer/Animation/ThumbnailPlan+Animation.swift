import Comet
import Foundation

extension ThumbnailPlan {
    /// The pipeline request for source bytes already fetched (`data`), named `id` for the
    /// pipeline's coalescing: the same steps and decode-time reduction as
    /// ``imageRequest(source:)`` gives.
    public func imageRequest(id: String, data: Data) -> ImageRequest {
        let options: ImageRequest.Options = keepsColorProfile ? [.keepOriginalColors] : []
        if let thumbnail = steps.first?.decodeTimeReduction {
            return ImageRequest(
                id: id, data: { data }, processors: Array(processors.dropFirst()), options: options,
                thumbnail: thumbnail)
        }
        return ImageRequest(id: id, data: { data }, processors: processors, options: options)
    }
}

extension ThumbnailPlan.Encoding {
    /// Encodes the frames of `animation` as an animated `format`: WebP at the quality asked for
    /// (100 lossless; `mb` searched as for a still WebP), or GIF (no quality). Each frame keeps
    /// its duration, and the animation its loop count. Throws for a format without animations.
    public func encode(_ animation: AnimatedImage, as format: OutputFormat) throws -> [UInt8] {
        switch format {
        case .gif:
            return [UInt8](try ImageEncoders.gif(animation))
        case .webp:
            let quality = formatQualities[.webp] ?? quality
            func encode(_ quality: Int?) throws -> [UInt8] {
                let fraction = Double(quality ?? OutputFormat.webp.defaultQuality!) / 100
                return [UInt8](try ImageEncoders.animatedWebP(animation, quality: fraction, lossless: quality == 100))
            }
            let first = try encode(quality)
            guard let maximumBytes, first.count > maximumBytes else { return first }
            var (low, high) = (1, min(quality ?? OutputFormat.webp.defaultQuality!, 99) - 1)
            var fitting: [UInt8]?
            var smallest = first
            for _ in 0..<Self.maximumBytesSearchSteps where low <= high {
                let middle = (low + high) / 2
                let candidate = try encode(middle)
                if candidate.count <= maximumBytes {
                    fitting = candidate
                    low = middle + 1
                } else {
                    if candidate.count < smallest.count { smallest = candidate }
                    high = middle - 1
                }
            }
            return fitting ?? smallest
        case .jpeg, .png, .avif:
            throw ServiceError.internal("\(format.rawValue) has no animations")
        }
    }
}
