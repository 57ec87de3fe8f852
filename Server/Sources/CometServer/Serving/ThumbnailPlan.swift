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
        /// Qualities for single formats (`fq`), over ``quality``.
        public var formatQualities: [OutputFormat: Int] = [:]
        /// The most bytes a JPEG, WebP or AVIF result should have (`mb`), or `nil`.
        public var maximumBytes: Int?

        /// The most encodes after the first that ``maximumBytes`` may cost: a bisection of the
        /// quality range, so the quality found is within 2 of the best that fits.
        public static let maximumBytesSearchSteps = 6

        /// Encodes `image` as `format` (the one asked for, or the one negotiated) with these
        /// settings. With ``maximumBytes`` and a lossy format, a result over it is encoded again
        /// at lower qualities (a bisection of at most ``maximumBytesSearchSteps`` encodes): the
        /// highest quality found that fits, else the smallest result made. The search stops
        /// early when the next encode, taking as long as the last one did, would end past
        /// `deadline`.
        public func encode(_ image: Image, as format: OutputFormat, deadline: ContinuousClock.Instant? = nil) throws
            -> [UInt8]
        {
            let background = background ?? RGBA8(red: 255, green: 255, blue: 255)
            let input = format.keepsAlpha ? image : image.flattened(onto: background)
            return try fitting(format: format, deadline: deadline) { quality in
                try format.encode(input, quality: quality)
            }
        }

        /// The result of `encode` at this format's quality (`nil`: the format's default) and,
        /// with ``maximumBytes``, when that is over it, the bisection ``encode(_:as:deadline:)``
        /// describes over lower qualities, stopped early before `deadline`.
        func fitting(
            format: OutputFormat, deadline: ContinuousClock.Instant?, _ encode: (Int?) throws -> [UInt8]
        ) throws -> [UInt8] {
            let clock = ContinuousClock()
            var started = clock.now
            let quality = formatQualities[format] ?? quality
            let first = try encode(quality)
            guard let maximumBytes, first.count > maximumBytes, let start = quality ?? format.defaultQuality else {
                return first
            }
            var (low, high) = (1, min(start, 99) - 1)
            var fitting: [UInt8]?
            var smallest = first
            for _ in 0..<Self.maximumBytesSearchSteps where low <= high {
                let now = clock.now
                if let deadline, now + (now - started) > deadline { break }
                started = now
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
        }
    }

    /// The processing steps, in the order they run.
    private(set) var steps: [Step] = []
    /// The encoder's settings.
    public var encoding = Encoding()
    /// Whether the source's colour numbers and profile are kept (`scp:0`); by default they are
    /// converted to sRGB and the result carries no profile.
    public var keepsColorProfile = false
    /// The source formats whose bytes are the result, unprocessed (`skp`, `raw`).
    public var skippedSourceFormats: [AssetType] = []
    /// Whether a JPEG's embedded EXIF thumbnail is used when it covers the resize (`eth`).
    public var enforcesThumbnail = false
    /// Whether the source is decoded with its EXIF orientation applied (`ar`; default `true`).
    public var appliesOrientation = true
    /// The longest side of the result (`mrd`): a larger one is scaled down to it, last; `nil` for
    /// none.
    public var maximumResultDimension: Int?
    /// The resize's target in pixels (`rs`, `dpr` and `z` applied; a side of 0 follows the
    /// other), or `nil` without a resize.
    var requestedSize: Size? { resizeTarget }
    /// Where a fill's cut is placed (`g`), offsets as the URL gives them; read by the resize,
    /// which comes after it in the table.
    var gravity = ImageProcessors.Gravity.center
    /// The device pixel ratio (`dpr`); read by the resize and the padding, which come after it.
    var pixelRatio = 1.0
    /// The least sides of the resize's result (`mw`, `mh`), before `dpr`; read by the resize,
    /// which comes after them.
    var minimumSize: (width: Int?, height: Int?) = (nil, nil)
    /// The zoom factors (`z`); read by the resize, which comes after it.
    var zoom = ThumbnailOptions.Zoom(x: 1, y: 1)
    /// The padding's sides in pixels (`pd`, the ratio applied). Laid last, on the background
    /// the encoding asks for (transparent by default), which is only known once every option
    /// has had its effect.
    var padding: ThumbnailOptions.Padding?
    /// The resize's target in pixels (`rs`, the ratio applied), which `ex` and `exar` extend to.
    private var resizeTarget: Size?
    /// The extensions (`ex`, `exar`): to the target's size or to its aspect ratio, each placed
    /// by its gravity (offsets in result pixels). Laid after the effects, on the background.
    private var extensions: [(toAspectRatio: Bool, gravity: ImageProcessors.Gravity)] = []
    /// The watermark (`wm`), drawn after the padding.
    var watermark: ThumbnailOptions.Watermark?
    /// The server's watermark image, which `wm` draws; without one, `wm` draws nothing (a
    /// request with `wm` is refused before its plan is made when the server has none).
    let watermarkImage: WatermarkImage?

    /// The plan of `options`, with the server's watermark image for `wm`.
    public init(_ options: ThumbnailOptions, watermark: WatermarkImage? = nil) {
        watermarkImage = watermark
        for option in ThumbnailOptions.table {
            option.apply(options, to: &self)
        }
    }

    /// The processors, in the order they run.
    public var processors: [any ImageProcessing] {
        var processors = steps.map(\.processor)
        let background = encoding.background ?? .clear
        if let target = resizeTarget {
            for (toAspectRatio, gravity) in extensions {
                if !toAspectRatio {
                    processors.append(
                        ImageProcessors.Extend(
                            width: target.width, height: target.height, gravity: gravity, background: background))
                } else if target.width > 0, target.height > 0 {
                    processors.append(
                        ImageProcessors.Extend(
                            aspectRatioWidth: Double(target.width), aspectRatioHeight: Double(target.height),
                            gravity: gravity, background: background))
                }
            }
        }
        if let padding {
            processors.append(
                ImageProcessors.Padding(
                    top: Double(padding.top), right: Double(padding.right), bottom: Double(padding.bottom),
                    left: Double(padding.left), background: background))
        }
        if let watermark, let watermarkImage {
            processors.append(ResultWatermark(image: watermarkImage, option: watermark, pixelRatio: pixelRatio))
        }
        if let side = maximumResultDimension {
            processors.append(ImageProcessors.Resize(size: Size(width: side, height: side), contentMode: .aspectFit))
        }
        return processors
    }

    /// The pipeline request for `source`. When the first step is a fit into a box without
    /// enlarging, it is a thumbnail request, so JPEGs and WebPs are reduced while decoding (fills
    /// and stretches get that reduction from the pipeline already, their size not depending on
    /// the source's aspect ratio), and the steps after it (effects, padding) are its processors.
    /// A step before the resize, a crop among them (it needs the source's own pixel grid),
    /// makes it a request with every step as a processor.
    public func imageRequest(source: URL) -> ImageRequest {
        let options: ImageRequest.Options = keepsColorProfile ? [.keepOriginalColors] : []
        if let thumbnail = steps.first?.decodeTimeReduction {
            return ImageRequest(
                url: source, processors: Array(processors.dropFirst()), options: options, thumbnail: thumbnail)
        }
        return ImageRequest(url: source, processors: processors, options: options)
    }

    /// Adds a processing step.
    mutating func add(_ processor: any ImageProcessing) {
        steps.append(Step(processor: processor, decodeTimeReduction: nil))
    }

    /// Adds the resize step of `resize`, its sides multiplied by ``zoom`` and ``pixelRatio``, and a fill's
    /// cut placed by ``gravity``.
    mutating func add(_ resize: ThumbnailOptions.Resize) {
        var resize = resize
        resize.width = Int((Double(resize.width) * zoom.x * pixelRatio).rounded())
        resize.height = Int((Double(resize.height) * zoom.y * pixelRatio).rounded())
        let size = Size(width: resize.width, height: resize.height)
        resizeTarget = size
        if resize.mode == .auto || minimumSize.width != nil || minimumSize.height != nil {
            // Decided once the source's size is known.
            func scaled(_ side: Int?) -> Int { Int((Double(side ?? 0) * pixelRatio).rounded()) }
            let processor = SourceAwareResize(
                resize: resize, minimumWidth: scaled(minimumSize.width), minimumHeight: scaled(minimumSize.height),
                gravity: gravity(inPixelsOf: size))
            steps.append(Step(processor: processor, decodeTimeReduction: nil))
            return
        }
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
        case .fill, .fillDown, .auto:
            // `fill-down` is spelled `fill` once parsed, and `auto` is a `SourceAwareResize`.
            processor = ImageProcessors.Resize(
                size: size, contentMode: .aspectFill, crop: true, upscale: resize.upscale,
                gravity: gravity(inPixelsOf: size))
        case .force:
            processor = ImageProcessors.Resize(size: size, contentMode: .stretch, upscale: resize.upscale)
        }
        steps.append(Step(processor: processor, decodeTimeReduction: reduction))
    }

    /// Adds an extension (`ex`, `exar`) to the resize's target, placed by `gravity` (its offsets
    /// read as ``gravity``'s are); nothing without a resize.
    mutating func addExtension(toAspectRatio: Bool, gravity: ImageProcessors.Gravity) {
        guard let target = resizeTarget else { return }
        extensions.append((toAspectRatio, Self.inPixels(gravity, of: target, pixelRatio: pixelRatio)))
    }

    private func gravity(inPixelsOf size: Size) -> ImageProcessors.Gravity {
        Self.inPixels(gravity, of: size, pixelRatio: pixelRatio)
    }

    /// `gravity` with its compass offsets in pixels of a `size` result: one below 1 in
    /// magnitude is that fraction of the side, any other is pixels times the ratio (as imgproxy
    /// reads them).
    private static func inPixels(_ gravity: ImageProcessors.Gravity, of size: Size, pixelRatio: Double)
        -> ImageProcessors.Gravity
    {
        guard case .compass(let point, let x, let y) = gravity else { return gravity }
        func pixels(_ offset: Double, side: Int) -> Double {
            abs(offset) < 1 ? offset * Double(side) : offset * pixelRatio
        }
        return .compass(point, offsetX: pixels(x, side: size.width), offsetY: pixels(y, side: size.height))
    }
}
