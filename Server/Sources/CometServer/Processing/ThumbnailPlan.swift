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
        /// A resize that depends on the source's size: it takes the steps after it in, as
        /// they read the device pixel ratio it honours (``SourceAwareResize``).
        var sourceAware: SourceAwareResize? = nil
    }

    /// How the result is written: every encoder setting an option may set, and their use.
    public struct Encoding: Sendable, Equatable {
        /// The encoder quality (1...100), or `nil` for the format's default.
        public var quality: Int?
        /// The output format asked for, or `nil` to take it from the URL's extension or `Accept`.
        public var format: OutputFormat?
        /// The colour a transparent result is laid on, in every format (`bg`, as imgproxy's
        /// flattens), or `nil`: transparency kept where the format holds it, white in JPEG.
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
            // As imgproxy: a background asked for flattens every format; without one, only a
            // format without alpha is laid on white.
            let input =
                format.keepsAlpha && background == nil
                ? image : image.flattened(onto: background ?? RGBA8(red: 255, green: 255, blue: 255))
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
    /// Whether `el:1` is given without `rs` (with `rs` it is `rs`'s own); read when `dpr`, `z`,
    /// `mw` or `mh` scale the source without `rs`.
    var enlarges = false
    /// The padding's sides in pixels before the device pixel ratio (`pd`). Laid last, on the
    /// background the encoding asks for (transparent by default), which is only known once
    /// every option has had its effect; its sides are multiplied by the ratio the resize
    /// honours.
    var padding: ThumbnailOptions.Padding?
    /// The resize's target in pixels (`rs`, the ratio applied), which `ex` and `exar` extend to.
    private var resizeTarget: Size?
    /// The extensions (`ex`, `exar`): to the target's size or to its aspect ratio, each placed
    /// by its gravity (offsets as the URL gives them, read as ``gravity``'s). Laid after the effects, on the background.
    private var extensions: [(toAspectRatio: Bool, gravity: ImageProcessors.Gravity)] = []
    /// The watermark (`wm`), drawn after the padding.
    var watermark: ThumbnailOptions.Watermark?
    /// The server's watermark image, which `wm` draws; without one, `wm` draws nothing (a
    /// request with `wm` is refused before its plan is made when the server has none).
    let watermarkImage: WatermarkImage?

    /// The plan of `options`, with the server's watermark image for `wm`.
    public init(_ options: ThumbnailOptions, watermark: WatermarkImage? = nil) {
        watermarkImage = watermark
        var resizeIndex = 0
        for option in ThumbnailOptions.table {
            if option === ThumbnailOptions.resize { resizeIndex = steps.count }
            option.apply(options, to: &self)
        }
        let scalesAlone =
            pixelRatio != 1 || zoom != ThumbnailOptions.Zoom(x: 1, y: 1) || minimumSize.width != nil
            || minimumSize.height != nil
        if resizeTarget == nil && scalesAlone {
            // imgproxy scales by these without a width or a height: a resize of 0 × 0 where
            // `rs` would be.
            let geometry = ResizeGeometry(
                mode: .fit, width: 0, height: 0, enlarges: enlarges, pixelRatio: pixelRatio, zoomX: zoom.x,
                zoomY: zoom.y, minimumWidth: minimumSize.width ?? 0, minimumHeight: minimumSize.height ?? 0,
                extends: false)
            let processor = SourceAwareResize(geometry: geometry, gravity: gravity)
            steps.insert(Step(processor: processor, decodeTimeReduction: nil, sourceAware: processor), at: resizeIndex)
        }
    }

    /// The processors, in the order they run.
    public var processors: [any ImageProcessing] {
        let background = encoding.background ?? .clear
        var processors: [any ImageProcessing] = []
        var sourceAware: SourceAwareResize?
        for step in steps {
            if sourceAware != nil {
                sourceAware?.effects.append(step.processor)
            } else if let resize = step.sourceAware {
                sourceAware = resize
            } else {
                processors.append(step.processor)
            }
        }
        if var resize = sourceAware {
            resize.geometry.extends = extensions.contains { !$0.toAspectRatio }
            resize.extensions = extensions
            resize.padding = padding
            resize.background = background
            resize.watermark = watermark.flatMap { option in watermarkImage.map { ($0, option) } }
            processors.append(resize)
            return processors
        }
        if let target = resizeTarget {
            for (toAspectRatio, gravity) in extensions {
                let gravity = Self.inPixels(gravity, of: target, pixelRatio: 1)
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
        // No source-aware resize: the device pixel ratio is 1 (any other makes one).
        if let padding {
            processors.append(
                ImageProcessors.Padding(
                    top: Double(padding.top), right: Double(padding.right), bottom: Double(padding.bottom),
                    left: Double(padding.left), background: background))
        }
        if let watermark, let watermarkImage {
            processors.append(ResultWatermark(image: watermarkImage, option: watermark, pixelRatio: 1))
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

    /// Adds the resize step of `resize` (with ``zoom``, ``pixelRatio``, ``minimumSize`` and a
    /// fill's cut placed by ``gravity``), as imgproxy makes it: a plain
    /// `ImageProcessors.Resize` where its result is imgproxy's whatever the source (a ratio of 1,
    /// no zoom, no least sides, `fit`, `fill`, `fill-down`, and `force` when enlarging), which
    /// keeps the decode-time reductions; else a ``SourceAwareResize``.
    mutating func add(_ resize: ThumbnailOptions.Resize) {
        let size = Size(
            width: Int((Double(resize.width) * zoom.x * pixelRatio).rounded()),
            height: Int((Double(resize.height) * zoom.y * pixelRatio).rounded()))
        resizeTarget = size
        let hasSides = resize.width > 0 && resize.height > 0
        let plain =
            pixelRatio == 1 && zoom == ThumbnailOptions.Zoom(x: 1, y: 1) && minimumSize.width == nil
            && minimumSize.height == nil && (resize.width > 0 || resize.height > 0)
            && (resize.mode == .fit || resize.mode == .fill || resize.mode == .fillDown
                || (resize.mode == .force && resize.upscale && hasSides))
        guard plain else {
            let geometry = ResizeGeometry(
                mode: resize.mode, width: resize.width, height: resize.height, enlarges: resize.upscale,
                pixelRatio: pixelRatio, zoomX: zoom.x, zoomY: zoom.y, minimumWidth: minimumSize.width ?? 0,
                minimumHeight: minimumSize.height ?? 0, extends: false)
            let processor = SourceAwareResize(geometry: geometry, gravity: gravity)
            steps.append(Step(processor: processor, decodeTimeReduction: nil, sourceAware: processor))
            return
        }
        let processor: ImageProcessors.Resize
        var reduction: ImageRequest.ThumbnailOptions?
        if resize.height == 0 {
            // Every type but `force` scales by the one side given (folded to `fit`).
            processor = ImageProcessors.Resize(width: resize.width, upscale: resize.upscale)
        } else if resize.width == 0 {
            processor = ImageProcessors.Resize(height: resize.height, upscale: resize.upscale)
        } else {
            switch resize.mode {
            case .fit, .auto:
                processor = ImageProcessors.Resize(size: size, contentMode: .aspectFit, upscale: resize.upscale)
                if !resize.upscale {
                    reduction = ImageRequest.ThumbnailOptions(
                        width: resize.width, height: resize.height, contentMode: .aspectFit)
                }
            case .fill, .fillDown:
                // Without enlarging, a source too small for the box: `fill` keeps it whole but
                // for what is over the box, `fill-down` keeps the box's shape.
                processor = ImageProcessors.Resize(
                    size: size, contentMode: .aspectFill, crop: true, upscale: resize.upscale,
                    gravity: gravity(inPixelsOf: size),
                    smallSource: resize.mode == .fill ? .keepsSource : .keepsTargetShape)
            case .force:
                processor = ImageProcessors.Resize(size: size, contentMode: .stretch, upscale: resize.upscale)
            }
        }
        steps.append(Step(processor: processor, decodeTimeReduction: reduction))
    }

    /// Adds an extension (`ex`, `exar`) to the resize's target, placed by `gravity` (its offsets
    /// read as ``gravity``'s are); nothing without a resize.
    mutating func addExtension(toAspectRatio: Bool, gravity: ImageProcessors.Gravity) {
        guard resizeTarget != nil else { return }
        extensions.append((toAspectRatio, gravity))
    }

    private func gravity(inPixelsOf size: Size) -> ImageProcessors.Gravity {
        Self.inPixels(gravity, of: size, pixelRatio: pixelRatio)
    }

    /// `gravity` with its compass offsets in pixels of a `size` result: one below 1 in
    /// magnitude is that fraction of the side, any other is pixels times the ratio (as imgproxy
    /// reads them).
    static func inPixels(_ gravity: ImageProcessors.Gravity, of size: Size, pixelRatio: Double)
        -> ImageProcessors.Gravity
    {
        guard case .compass(let point, let x, let y) = gravity else { return gravity }
        func pixels(_ offset: Double, side: Int) -> Double {
            abs(offset) < 1 ? offset * Double(side) : offset * pixelRatio
        }
        return .compass(point, offsetX: pixels(x, side: size.width), offsetY: pixels(y, side: size.height))
    }
}
