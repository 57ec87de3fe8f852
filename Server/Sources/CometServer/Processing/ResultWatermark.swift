import Comet

/// Draws the server's watermark over a result as a `wm` option asks: its relative offsets
/// (below 1 in magnitude) become fractions of the result's sides, known only when the result
/// is, and its pixel offsets are multiplied by the device pixel ratio; then
/// `ImageProcessors.Watermark` composites it (premultiplied "over", in sRGB).
///
/// Thread-safe (immutable).
struct ResultWatermark: ImageProcessing {
    let image: WatermarkImage
    let option: ThumbnailOptions.Watermark
    let pixelRatio: Double

    /// E.g. `com.comet.server.watermark?overlay=0123456789abcdef&wm=0.5:soea:10:10:0.25&dpr=2`.
    var identifier: String {
        var spelling: [UInt8] = []
        spelling.appendArgument(option.opacity)
        spelling.appendArgument(option.position.description)
        spelling.appendArgument(option.offsetX)
        spelling.appendArgument(option.offsetY)
        spelling.appendArgument(option.scale)
        return
            "com.comet.server.watermark?overlay=\(image.id)&wm=\(String(decoding: spelling.dropFirst(), as: UTF8.self))"
            + "&dpr=\(OptionNumber.spelling(pixelRatio))"
    }

    func process(_ result: Image) throws -> Image {
        let side = Double(ImageProcessors.maximumResultSide)
        func pixels(_ offset: Double, of length: Int) -> Double {
            let value = abs(offset) < 1 ? offset * Double(length) : offset * pixelRatio
            return min(max(value, option.position == .tiled ? 0 : -side), side)
        }
        return try ImageProcessors.Watermark(
            overlay: image.image, overlayID: image.id, opacity: option.opacity, position: option.position,
            offsetX: pixels(option.offsetX, of: result.width), offsetY: pixels(option.offsetY, of: result.height),
            scale: option.scale
        ).process(result)
    }
}
