import Comet

/// The resize steps that depend on the source's size, decided once it is known: `rs:auto`
/// (a fill when the source and the box have the same orientation, else a fit), and any resize
/// with a least width or height (`mw`, `mh`).
///
/// A least side raises the resize's scale until the result reaches it (up to the source's own
/// size unless enlarging; a stretch raises each axis alone); a fill is then cut to its width and
/// height, placed by the gravity; enlarging, no side is longer than the largest of the width,
/// the height and the least sides (a longer one is cut). Thread-safe (immutable).
struct SourceAwareResize: ImageProcessing, Hashable {
    /// The resize, its sides in result pixels (`dpr` and `z` applied), folded (both sides above
    /// 0 unless a fit).
    let resize: ThumbnailOptions.Resize
    /// The least sides in result pixels, 0 for none.
    let minimumWidth: Int
    let minimumHeight: Int
    /// Where a cut is placed; compass offsets in result pixels.
    let gravity: ImageProcessors.Gravity

    /// E.g. `com.comet.server.resize?mode=auto&width=200&height=100&upscale=false&minWidth=0&minHeight=0&gravity=ce`.
    var identifier: String {
        "com.comet.server.resize?mode=\(resize.mode.rawValue)&width=\(resize.width)&height=\(resize.height)"
            + "&upscale=\(resize.upscale)&minWidth=\(minimumWidth)&minHeight=\(minimumHeight)&gravity=\(gravity)"
    }

    func process(_ image: Image) throws -> Image {
        let mode = mode(for: image)
        guard minimumWidth > 0 || minimumHeight > 0 else { return try plain(mode).process(image) }
        return try withLeastSides(mode, image)
    }

    /// `auto` made a fill or a fit for `image`; any other type as it is.
    private func mode(for image: Image) -> ResizeMode {
        guard resize.mode == .auto else { return resize.mode }
        // A square counts as landscape, on either side.
        let sourceLandscape = image.width >= image.height
        let targetLandscape = resize.width >= resize.height
        return sourceLandscape == targetLandscape ? .fill : .fit
    }

    /// The resize of `mode` without least sides.
    private func plain(_ mode: ResizeMode) -> ImageProcessors.Resize {
        let size = Size(width: resize.width, height: resize.height)
        switch mode {
        case .fill, .fillDown:
            return ImageProcessors.Resize(
                size: size, contentMode: .aspectFill, crop: true, upscale: resize.upscale, gravity: gravity)
        case .force:
            return ImageProcessors.Resize(size: size, contentMode: .stretch, upscale: resize.upscale)
        case .fit, .auto:
            if resize.height == 0 { return ImageProcessors.Resize(width: resize.width, upscale: resize.upscale) }
            if resize.width == 0 { return ImageProcessors.Resize(height: resize.height, upscale: resize.upscale) }
            return ImageProcessors.Resize(size: size, contentMode: .aspectFit, upscale: resize.upscale)
        }
    }

    /// The resize of `mode` with its scale raised to the least sides, then cut.
    private func withLeastSides(_ mode: ResizeMode, _ image: Image) throws -> Image {
        let (sourceWidth, sourceHeight) = (Double(image.width), Double(image.height))
        let (width, height) = (Double(resize.width), Double(resize.height))
        let fx = resize.width > 0 ? width / sourceWidth : nil
        let fy = resize.height > 0 ? height / sourceHeight : nil
        var (sx, sy): (Double, Double)
        switch mode {
        case .force:
            (sx, sy) = (fx ?? fy ?? 1, fy ?? fx ?? 1)
        case .fill, .fillDown:
            sx = max(fx ?? 0, fy ?? 0)
            sy = sx
        case .fit, .auto:
            sx = min(fx ?? .infinity, fy ?? .infinity)
            sy = sx
        }
        let (leastX, leastY) = (Double(minimumWidth) / sourceWidth, Double(minimumHeight) / sourceHeight)
        if mode == .force {
            (sx, sy) = (max(sx, leastX), max(sy, leastY))
        } else {
            let raise = max(1, leastX / sx, leastY / sy)
            (sx, sy) = (sx * raise, sy * raise)
        }
        // Without enlarging, a fill's cut shrinks with the scale, so that it keeps its shape.
        var shrink = 1.0
        if !resize.upscale, max(sx, sy) > 1 {
            shrink = 1 / max(sx, sy)
            (sx, sy) = (sx * shrink, sy * shrink)
        }
        let cuts = mode == .fill || mode == .fillDown
        // Enlarging, a least side could make the other side of any length: it is held to the
        // largest side asked for (without enlarging, the source's own sides hold it).
        let largest = resize.upscale ? Double(max(resize.width, resize.height, minimumWidth, minimumHeight)) : .infinity
        func side(_ full: Double, limit: Double) -> Int {
            max(1, Int(min(full, cuts && limit > 0 ? limit * shrink : .infinity, largest).rounded()))
        }
        let outputWidth = side(sourceWidth * sx, limit: width)
        let outputHeight = side(sourceHeight * sy, limit: height)
        var placement = gravity
        if case .compass(let point, let x, let y) = gravity {
            placement = .compass(point, offsetX: x / sx, offsetY: y / sy)
        }
        let cut = ImageProcessors.Crop(
            width: min(image.width, Int((Double(outputWidth) / sx).rounded())),
            height: min(image.height, Int((Double(outputHeight) / sy).rounded())), gravity: placement)
        let region = try cut.process(image)
        return try ImageProcessors.Resize(
            size: Size(width: outputWidth, height: outputHeight), contentMode: .stretch, upscale: true
        ).process(region)
    }
}
