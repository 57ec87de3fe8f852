/// imgproxy's resize arithmetic for one source size: the scale of each axis, the device pixel
/// ratio that can be honoured, the target and the cut to the result, from `rs` (its type, sides
/// and enlarge), `dpr`, `z`, `mw`, `mh` and whether `ex` extends.
///
/// Written from imgproxy's `processing` package (its scale, result-size and fill-down rules), so
/// that every type gives imgproxy's result sizes:
/// - The shrink of each axis is the source's side over the asked side (1 for a side of 0 or
///   equal to the source's); `fit` takes the larger of the two for both axes, `fill` and
///   `fill-down` the smaller, `force` keeps each, and a side of 0 follows the other (but for
///   `force`, which keeps the source's side); `auto` is `fill` when the source and the box are
///   both landscape (a square counts as landscape) or both portrait, else `fit`. `z` divides
///   each axis' shrink.
/// - Without enlarging, a shrink below 1 on either axis is raised to 1, both axes alike (so the
///   box's aspect ratio is kept), and the device pixel ratio is raised with it (unless `ex`
///   extends), then held to what does not enlarge the image.
/// - `mw` and `mh` lower the shrink until the side reaches them (enlarging if need be).
/// - The result is then cut to the target (the asked sides times the honoured ratio and `z`;
///   0 cuts nothing on that side); `fill-down` without enlarging first shrinks a target larger
///   than the scaled image to the largest cut of its aspect ratio that the image holds.
///
/// Thread-safe (a value).
struct ResizeGeometry: Sendable, Hashable {
    /// The resizing type.
    var mode: ResizeMode
    /// The asked sides in pixels before `dpr` and `z`; 0 for none.
    var width: Int
    var height: Int
    /// Whether the image may be enlarged (`el:1`, or `rs`'s fourth value).
    var enlarges: Bool
    /// The asked device pixel ratio (`dpr`).
    var pixelRatio: Double
    /// The zoom factors (`z`).
    var zoomX: Double
    var zoomY: Double
    /// The least sides (`mw`, `mh`) in pixels; 0 for none.
    var minimumWidth: Int
    var minimumHeight: Int
    /// Whether `ex` extends the result to the target (the ratio is then not raised for a source
    /// too small).
    var extends: Bool

    /// What the arithmetic gives for one source.
    struct Sizes: Equatable {
        /// The scale of each axis.
        var scaleX: Double
        var scaleY: Double
        /// The device pixel ratio honoured: the one that multiplies padding, extension and
        /// gravity offsets in pixels.
        var pixelRatio: Double
        /// The image's size once scaled.
        var scaledWidth: Int
        var scaledHeight: Int
        /// The target: the asked sides times the honoured ratio and `z` (0: none on that side).
        var targetWidth: Int
        var targetHeight: Int
        /// The cut made after the scale (0: none on that side); larger than the scaled image on
        /// a side, it cuts nothing there.
        var cutWidth: Int
        var cutHeight: Int
    }

    /// imgproxy's rounding of a scaled side (halves away from zero).
    static func scale(_ side: Int, by factor: Double) -> Int { Int((Double(side) * factor).rounded()) }

    /// The sizes for a `sourceWidth` × `sourceHeight` source (after any `c` crop).
    func sizes(sourceWidth: Int, sourceHeight: Int) -> Sizes {
        let (sourceW, sourceH) = (Double(sourceWidth), Double(sourceHeight))
        let boxW = width > 0 ? Double(width) : sourceW
        let boxH = height > 0 ? Double(height) : sourceH
        var shrinkX = boxW == sourceW ? 1 : sourceW / boxW
        var shrinkY = boxH == sourceH ? 1 : sourceH / boxH
        if shrinkX != 1 || shrinkY != 1 {
            var type = mode
            if type == .auto { type = (sourceW >= sourceH) == (boxW >= boxH) ? .fill : .fit }
            if width == 0 && type != .force {
                shrinkX = shrinkY
            } else if height == 0 && type != .force {
                shrinkY = shrinkX
            } else if type == .fit {
                shrinkX = max(shrinkX, shrinkY)
                shrinkY = shrinkX
            } else if type == .fill || type == .fillDown {
                shrinkX = min(shrinkX, shrinkY)
                shrinkY = shrinkX
            }
        }
        shrinkX /= zoomX
        shrinkY /= zoomY
        var ratio = pixelRatio
        if !enlarges {
            let least = min(shrinkX, shrinkY)
            if least < 1 {
                shrinkX /= least
                shrinkY /= least
                // The source cannot reach the box: a ratio below 1 would take it further from
                // it. With an extension the composition is kept whatever the ratio.
                if !extends { ratio /= least }
            }
            ratio = min(ratio, shrinkX, shrinkY)
        }
        if minimumWidth > 0 {
            let least = sourceW / Double(minimumWidth)
            if least < shrinkX {
                shrinkY /= shrinkX / least
                shrinkX = least
            }
        }
        if minimumHeight > 0 {
            let least = sourceH / Double(minimumHeight)
            if least < shrinkY {
                shrinkX /= shrinkY / least
                shrinkY = least
            }
        }
        shrinkX = min(shrinkX / ratio, sourceW)
        shrinkY = min(shrinkY / ratio, sourceH)
        let (scaleX, scaleY) = (1 / shrinkX, 1 / shrinkY)
        let targetW = Self.scale(width, by: ratio * zoomX), targetH = Self.scale(height, by: ratio * zoomY)
        let scaledW = max(1, Self.scale(sourceWidth, by: scaleX)),
            scaledH = max(1, Self.scale(sourceHeight, by: scaleY))
        var (cutW, cutH) = (targetW, targetH)
        if mode == .fillDown && !enlarges, targetW > 0, targetH > 0 {
            let overX = Double(targetW) / Double(scaledW), overY = Double(targetH) / Double(scaledH)
            if overX > overY && overX > 1 {
                (cutW, cutH) = (scaledW, Self.scale(scaledW, by: Double(targetH) / Double(targetW)))
            } else if overY > overX && overY > 1 {
                (cutW, cutH) = (Self.scale(scaledH, by: Double(targetW) / Double(targetH)), scaledH)
            }
        }
        return Sizes(
            scaleX: scaleX, scaleY: scaleY, pixelRatio: ratio, scaledWidth: scaledW, scaledHeight: scaledH,
            targetWidth: targetW, targetHeight: targetH, cutWidth: cutW, cutHeight: cutH)
    }
}
