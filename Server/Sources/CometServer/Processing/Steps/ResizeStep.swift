import Comet

/// The resize (`rs`, with `s`, `w`, `h` and `rt` folded into it), shaped by `g`, `dpr`, `z`,
/// `mw`, `mh` and `el`, as imgproxy makes it: a plain `ImageProcessors.Resize` where its result
/// is imgproxy's whatever the source (a ratio of 1, no zoom, no least sides, `fit`, `fill`,
/// `fill-down`, and `force` when enlarging), which keeps the decode-time reductions; else a
/// ``SourceAwareResize``. Without `rs`, a `dpr`, `z`, `mw` or `mh` scales the source by a
/// resize of 0 × 0, as imgproxy does.
struct ResizeStep: ThumbnailStep {
    var reads: [ThumbnailOption] {
        [
            ThumbnailOptions.resize, ThumbnailOptions.gravity, ThumbnailOptions.pixelRatio, ThumbnailOptions.zoom,
            ThumbnailOptions.minimumWidth, ThumbnailOptions.minimumHeight, ThumbnailOptions.enlarge,
        ]
    }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        let pixelRatio = options.pixelRatio ?? 1
        let zoom = options.zoom ?? ThumbnailOptions.Zoom(x: 1, y: 1)
        let gravity = options.gravity ?? .center
        let scalesAlone =
            pixelRatio != 1 || zoom != ThumbnailOptions.Zoom(x: 1, y: 1) || options.minimumWidth != nil
            || options.minimumHeight != nil
        guard let resize = options.resize else {
            guard scalesAlone else { return }
            let geometry = ResizeGeometry(
                mode: .fit, width: 0, height: 0, enlarges: options.enlarges == true, pixelRatio: pixelRatio,
                zoomX: zoom.x, zoomY: zoom.y, minimumWidth: options.minimumWidth ?? 0,
                minimumHeight: options.minimumHeight ?? 0, extends: false)
            plan.add(.resizeBySource(SourceAwareResize(geometry: geometry, gravity: gravity)))
            return
        }
        let size = Size(
            width: Int((Double(resize.width) * zoom.x * pixelRatio).rounded()),
            height: Int((Double(resize.height) * zoom.y * pixelRatio).rounded()))
        plan.requestedSize = size
        let hasSides = resize.width > 0 && resize.height > 0
        let plain =
            !scalesAlone && (resize.width > 0 || resize.height > 0)
            && (resize.mode == .fit || resize.mode == .fill || resize.mode == .fillDown
                || (resize.mode == .force && resize.upscale && hasSides))
        guard plain else {
            let geometry = ResizeGeometry(
                mode: resize.mode, width: resize.width, height: resize.height, enlarges: resize.upscale,
                pixelRatio: pixelRatio, zoomX: zoom.x, zoomY: zoom.y, minimumWidth: options.minimumWidth ?? 0,
                minimumHeight: options.minimumHeight ?? 0, extends: false)
            plan.add(.resizeBySource(SourceAwareResize(geometry: geometry, gravity: gravity)))
            return
        }
        plan.add(Self.plainResize(resize, size: size, gravity: gravity))
    }

    /// The plain resize of `resize` to `size` (a ratio of 1), and the decode-time reduction of
    /// a fit that does not enlarge.
    private static func plainResize(_ resize: ThumbnailOptions.Resize, size: Size, gravity: ImageProcessors.Gravity)
        -> ThumbnailPlan.Operation
    {
        if resize.height == 0 {
            // Every type but `force` scales by the one side given (folded to `fit`).
            return .process(
                ImageProcessors.Resize(width: resize.width, upscale: resize.upscale), decodeTimeReduction: nil)
        }
        if resize.width == 0 {
            return .process(
                ImageProcessors.Resize(height: resize.height, upscale: resize.upscale), decodeTimeReduction: nil)
        }
        switch resize.mode {
        case .fit, .auto:
            let reduction =
                resize.upscale
                ? nil
                : ImageRequest.ThumbnailOptions(width: resize.width, height: resize.height, contentMode: .aspectFit)
            return .process(
                ImageProcessors.Resize(size: size, contentMode: .aspectFit, upscale: resize.upscale),
                decodeTimeReduction: reduction)
        case .fill, .fillDown:
            // Without enlarging, a source too small for the box: `fill` keeps it whole but for
            // what is over the box, `fill-down` keeps the box's shape.
            return .process(
                ImageProcessors.Resize(
                    size: size, contentMode: .aspectFill, crop: true, upscale: resize.upscale,
                    gravity: ThumbnailPlan.inPixels(gravity, of: size, pixelRatio: 1),
                    smallSource: resize.mode == .fill ? .keepsSource : .keepsTargetShape),
                decodeTimeReduction: nil)
        case .force:
            return .process(
                ImageProcessors.Resize(size: size, contentMode: .stretch, upscale: resize.upscale),
                decodeTimeReduction: nil)
        }
    }
}
