import Comet

/// The resize and what follows it when they depend on the source's size: imgproxy's arithmetic
/// (``ResizeGeometry``) made once the source is known, then the steps that read the device pixel
/// ratio it honours.
///
/// Used where a plain ``ImageProcessors/Resize`` decided at plan time cannot give imgproxy's
/// result: a device pixel ratio other than 1 (imgproxy lowers it where it would enlarge a source
/// that may not be), a zoom, least sides (`mw`, `mh`), `auto`, and `force` without enlarging.
/// The image is scaled to ``ResizeGeometry/Sizes``' scaled size, cut to its cut placed by the
/// gravity, then goes through the effects, the extensions, the padding (its sides times the
/// honoured ratio, rounded half to even) and the watermark (its pixel offsets times that ratio),
/// in that order. Thread-safe (immutable).
struct SourceAwareResize: ImageProcessing {
    /// The arithmetic.
    var geometry: ResizeGeometry
    /// Where the cut is placed; compass offsets as the URL gives them (below 1 in magnitude a
    /// fraction of the cut's side, else pixels before the ratio).
    var gravity: ImageProcessors.Gravity
    /// The steps between the resize and the extensions (the effects), in order.
    var effects: [any ImageProcessing] = []
    /// The extensions (`ex`, `exar`), each to the target's size or to its aspect ratio, placed
    /// by its gravity (offsets read as ``gravity``'s).
    var extensions: [(toAspectRatio: Bool, gravity: ImageProcessors.Gravity)] = []
    /// The padding's sides before the ratio (`pd`), or `nil`.
    var padding: ThumbnailOptions.Padding?
    /// The colour of the space the extensions and the padding add.
    var background: RGBA8 = .clear
    /// The server's watermark and how `wm` draws it, or `nil`.
    var watermark: (image: WatermarkImage, option: ThumbnailOptions.Watermark)?

    /// Every part that changes the result, e.g.
    /// `com.comet.server.resize?mode=fill&width=300&height=200&upscale=false&dpr=2&zoom=1:1&min=0:0&extend=false&gravity=ce`
    /// then each following step's identifier after a `|`.
    var identifier: String {
        let g = geometry
        var text =
            "com.comet.server.resize?mode=\(g.mode.rawValue)&width=\(g.width)&height=\(g.height)&upscale=\(g.enlarges)"
            + "&dpr=\(OptionNumber.spelling(g.pixelRatio))"
            + "&zoom=\(OptionNumber.spelling(g.zoomX)):\(OptionNumber.spelling(g.zoomY))"
            + "&min=\(g.minimumWidth):\(g.minimumHeight)&extend=\(g.extends)&gravity=\(gravity)"
        for effect in effects { text += "|" + effect.identifier }
        for (toAspectRatio, gravity) in extensions { text += "|extend?aspectRatio=\(toAspectRatio)&gravity=\(gravity)" }
        if let padding {
            text += "|padding?\(padding.top):\(padding.right):\(padding.bottom):\(padding.left)"
        }
        if extensions.count > 0 || padding != nil {
            text += "|background=\(background.red),\(background.green),\(background.blue),\(background.alpha)"
        }
        if let watermark {
            text += "|" + ResultWatermark(image: watermark.image, option: watermark.option, pixelRatio: 1).identifier
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
        for effect in effects { result = try effect.process(result) }
        let target = Size(width: sizes.targetWidth, height: sizes.targetHeight)
        for (toAspectRatio, gravity) in extensions {
            let placement = ThumbnailPlan.inPixels(gravity, of: target, pixelRatio: sizes.pixelRatio)
            if !toAspectRatio {
                result = try ImageProcessors.Extend(
                    width: target.width, height: target.height, gravity: placement, background: background
                ).process(result)
            } else if target.width > 0, target.height > 0 {
                result = try ImageProcessors.Extend(
                    aspectRatioWidth: Double(target.width), aspectRatioHeight: Double(target.height),
                    gravity: placement, background: background
                ).process(result)
            }
        }
        if let padding {
            func side(_ value: Int) -> Double { (Double(value) * sizes.pixelRatio).rounded(.toNearestOrEven) }
            result = try ImageProcessors.Padding(
                top: side(padding.top), right: side(padding.right), bottom: side(padding.bottom),
                left: side(padding.left), background: background
            ).process(result)
        }
        if let watermark {
            result = try ResultWatermark(image: watermark.image, option: watermark.option, pixelRatio: sizes.pixelRatio)
                .process(result)
        }
        return result
    }
}
