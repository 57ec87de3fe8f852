import Comet

/// The resize and what follows it when they depend on the source's size: imgproxy's arithmetic
/// (``ResizeGeometry``) made once the source is known, then the plan's operations after it,
/// made with the device pixel ratio it honours.
///
/// Used where a plain ``ImageProcessors/Resize`` decided at plan time cannot give imgproxy's
/// result: a device pixel ratio other than 1 (imgproxy lowers it where it would enlarge a source
/// that may not be), a zoom, least sides (`mw`, `mh`), `auto`, and `force` without enlarging.
/// The image is scaled to ``ResizeGeometry/Sizes``' scaled size, cut to its cut placed by the
/// gravity, then goes through the operations after it in the plan's order (the effects, the
/// extensions, the padding with its sides times the honoured ratio, the watermark with its
/// pixel offsets times that ratio, the largest side). Thread-safe (immutable).
struct SourceAwareResize: ImageProcessing {
    /// The arithmetic.
    var geometry: ResizeGeometry
    /// Where the cut is placed; compass offsets as the URL gives them (below 1 in magnitude a
    /// fraction of the cut's side, else pixels before the ratio).
    var gravity: ImageProcessors.Gravity
    /// The plan's operations after the resize, in order.
    var following: [ThumbnailPlan.Operation] = []
    /// The colour of the space the extensions and the padding add.
    var background: RGBA8 = .clear
    /// The server's watermark image, which a `wm` operation draws.
    var watermarkImage: WatermarkImage?

    /// Every part that changes the result, e.g.
    /// `com.comet.server.resize?mode=fill&width=300&height=200&upscale=false&dpr=2&zoom=1:1&min=0:0&extend=false&gravity=ce`
    /// then each following operation's after a `|`.
    var identifier: String {
        let g = geometry
        var text =
            "com.comet.server.resize?mode=\(g.mode.rawValue)&width=\(g.width)&height=\(g.height)&upscale=\(g.enlarges)"
            + "&dpr=\(OptionNumber.spelling(g.pixelRatio))"
            + "&zoom=\(OptionNumber.spelling(g.zoomX)):\(OptionNumber.spelling(g.zoomY))"
            + "&min=\(g.minimumWidth):\(g.minimumHeight)&extend=\(g.extends)&gravity=\(gravity)"
        for operation in following {
            text += "|" + operation.identifier(background: background, watermarkImage: watermarkImage)
        }
        return text
    }

    func process(_ image: Image) throws -> Image {
        let sizes = geometry.sizes(sourceWidth: image.width, sourceHeight: image.height)
        var result = image
        if sizes.scaledWidth != image.width || sizes.scaledHeight != image.height {
            result = try ImageProcessors.Resize(
                size: Size(width: sizes.scaledWidth, height: sizes.scaledHeight), contentMode: .stretch, upscale: true
            ).process(result)
        }
        let cutWidth = sizes.cutWidth > 0 ? min(sizes.cutWidth, result.width) : result.width
        let cutHeight = sizes.cutHeight > 0 ? min(sizes.cutHeight, result.height) : result.height
        if cutWidth < result.width || cutHeight < result.height {
            let cut = Size(width: cutWidth, height: cutHeight)
            result = try ImageProcessors.Crop(
                width: cutWidth, height: cutHeight,
                gravity: ThumbnailPlan.inPixels(gravity, of: cut, pixelRatio: sizes.pixelRatio)
            ).process(result)
        }
        let frame = ThumbnailPlan.ResultFrame(
            target: Size(width: sizes.targetWidth, height: sizes.targetHeight), pixelRatio: sizes.pixelRatio,
            background: background, watermarkImage: watermarkImage)
        for operation in following {
            if let processor = operation.processor(in: frame) { result = try processor.process(result) }
        }
        return result
    }
}
