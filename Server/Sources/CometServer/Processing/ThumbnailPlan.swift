import Comet
import Foundation

/// What a thumbnail URL's options make of its source: the operations on its pixels in order,
/// how it is read and how the result is written.
///
/// Made by the steps of `steps`, in their order, each reading its own options: the order is
/// written there once, and the pipeline request comes from the plan, so no option can be dropped
/// on one path and kept on another. Thread-safe (a value).
public struct ThumbnailPlan: Sendable {
    /// The operations on the pixels, in the order they run (the order the steps added them).
    private(set) var operations: [Operation] = []
    /// The encoder's settings (`EncodingStep`).
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
    /// The resize's target in pixels (`rs`, `dpr` and `z` applied; a side of 0 follows the
    /// other), or `nil` without a resize: what `ex` and `exar` extend to, and what an EXIF
    /// thumbnail must cover (`eth`). Set by `ResizeStep`.
    public internal(set) var requestedSize: Size?
    /// The server's watermark image, which `wm` draws; without one, `wm` draws nothing (a
    /// request with `wm` is refused before its plan is made when the server has none).
    let watermarkImage: WatermarkImage?

    /// The plan of `options`, with the server's watermark image for `wm`: each of `steps`
    /// adds what it reads, in order.
    public init(_ options: ThumbnailOptions, watermark: WatermarkImage? = nil) {
        watermarkImage = watermark
        for step in Self.steps { step.add(options, to: &self) }
    }

    /// Adds an operation after those added so far.
    mutating func add(_ operation: Operation) {
        operations.append(operation)
    }

    /// Adds `processor` after the operations added so far.
    mutating func add(_ processor: any ImageProcessing) {
        operations.append(.process(processor, decodeTimeReduction: nil))
    }

    /// The processors, in the order they run. The operations after a source-aware resize run
    /// inside it (they need the ratio it honours); the others are made here, in the resize's
    /// frame with a ratio of 1.
    public var processors: [any ImageProcessing] {
        let background = encoding.background ?? .clear
        let frame = ResultFrame(
            target: requestedSize, pixelRatio: 1, background: background, watermarkImage: watermarkImage)
        var processors: [any ImageProcessing] = []
        for (index, operation) in operations.enumerated() {
            if case .resizeBySource(var resize) = operation {
                resize.following = Array(operations[(index + 1)...])
                resize.geometry.extends = resize.following.contains(where: \.extendsToTarget)
                resize.background = background
                resize.watermarkImage = watermarkImage
                processors.append(resize)
                break
            }
            if let processor = operation.processor(in: frame) { processors.append(processor) }
        }
        return processors
    }

    /// The thumbnail request that does the first operation while decoding, when it may (a
    /// plain fit into a box as the first operation), else `nil`.
    var decodeTimeReduction: ImageRequest.ThumbnailOptions? {
        guard case .process(_, let reduction)? = operations.first else { return nil }
        return reduction
    }

    /// The pipeline request for `source`. When the first step is a fit into a box without
    /// enlarging, it is a thumbnail request, so JPEGs and WebPs are reduced while decoding (fills
    /// and stretches get that reduction from the pipeline already, their size not depending on
    /// the source's aspect ratio), and the steps after it (effects, padding) are its processors.
    /// A step before the resize, a crop among them (it needs the source's own pixel grid),
    /// makes it a request with every step as a processor.
    public func imageRequest(source: URL) -> ImageRequest {
        let options: ImageRequest.Options = keepsColorProfile ? [.keepOriginalColors] : []
        if let thumbnail = decodeTimeReduction {
            return ImageRequest(
                url: source, processors: Array(processors.dropFirst()), options: options, thumbnail: thumbnail)
        }
        return ImageRequest(url: source, processors: processors, options: options)
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
