import Comet
import Foundation

/// What a thumbnail URL's options make of its source: the processing steps in order, and the
/// encoder's settings.
///
/// Made from ``ThumbnailOptions/table`` alone, each option adding its own effect
/// (``ThumbnailOption``), and the pipeline request comes from the plan: no option can be dropped
/// on one path and kept on another. Thread-safe (a value).
public struct ThumbnailPlan: Sendable {
    /// One processing step: its processor, and, when the step may instead be done while decoding
    /// (a plain fit into a box), the thumbnail request that does it.
    struct Step: Sendable {
        let processor: any ImageProcessing
        let decodeTimeReduction: ImageRequest.ThumbnailOptions?
    }

    /// How the result is written: every encoder setting an option may set, and their use.
    public struct Encoding: Sendable, Equatable {
        /// The encoder quality (1...100), or `nil` for the format's default.
        public var quality: Int?
        /// The output format asked for, or `nil` to take it from the URL's extension or `Accept`.
        public var format: OutputFormat?
        /// The colour a transparent result is laid on for a format without alpha, or `nil` for
        /// white.
        public var background: RGBA8?

        /// Encodes `image` as `format` (the one asked for, or the one negotiated) with these
        /// settings.
        public func encode(_ image: Image, as format: OutputFormat) throws -> [UInt8] {
            let background = background ?? RGBA8(red: 255, green: 255, blue: 255)
            return try format.encode(format.keepsAlpha ? image : image.flattened(onto: background), quality: quality)
        }
    }

    /// The processing steps, in the order they run.
    private(set) var steps: [Step] = []
    /// The encoder's settings.
    public var encoding = Encoding()
    /// Whether the source's colour numbers and profile are kept (`scp:0`); by default they are
    /// converted to sRGB and the result carries no profile.
    public var keepsColorProfile = false

    /// The plan of `options`.
    public init(_ options: ThumbnailOptions) {
        for option in ThumbnailOptions.table {
            option.apply(options, to: &self)
        }
    }

    /// The processors, in the order they run.
    public var processors: [any ImageProcessing] { steps.map(\.processor) }

    /// The pipeline request for `source`. When the only step is a fit into a box without
    /// enlarging, it is a thumbnail request, so JPEGs and WebPs are reduced while decoding (fills
    /// and stretches get that reduction from the pipeline already, their size not depending on
    /// the source's aspect ratio). Any other step, a crop among them (it needs the source's own
    /// pixel grid), makes it a request with the processors.
    public func imageRequest(source: URL) -> ImageRequest {
        let options: ImageRequest.Options = keepsColorProfile ? [.keepOriginalColors] : []
        if steps.count == 1, let thumbnail = steps[0].decodeTimeReduction {
            return ImageRequest(url: source, options: options, thumbnail: thumbnail)
        }
        return ImageRequest(url: source, processors: processors, options: options)
    }

    /// Adds a processing step.
    mutating func add(_ processor: any ImageProcessing) {
        steps.append(Step(processor: processor, decodeTimeReduction: nil))
    }

    /// Adds the resize step of `resize`.
    mutating func add(_ resize: ThumbnailOptions.Resize) {
        let size = Size(width: resize.width, height: resize.height)
        let processor: ImageProcessors.Resize
        var reduction: ImageRequest.ThumbnailOptions?
        switch resize.mode {
        case .fit where resize.height == 0:
            processor = ImageProcessors.Resize(width: resize.width, upscale: resize.upscale)
        case .fit where resize.width == 0:
            processor = ImageProcessors.Resize(height: resize.height, upscale: resize.upscale)
        case .fit:
            processor = ImageProcessors.Resize(size: size, contentMode: .aspectFit, upscale: resize.upscale)
            if !resize.upscale {
                reduction = ImageRequest.ThumbnailOptions(
                    width: resize.width, height: resize.height, contentMode: .aspectFit)
            }
        case .fill:
            processor = ImageProcessors.Resize(
                size: size, contentMode: .aspectFill, crop: true, upscale: resize.upscale)
        case .force:
            processor = ImageProcessors.Resize(size: size, contentMode: .stretch, upscale: resize.upscale)
        }
        steps.append(Step(processor: processor, decodeTimeReduction: reduction))
    }
}
