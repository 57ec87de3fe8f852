import Comet

/// Cuts the area a `c` option asks for out of the source, once its size is known: sides below 1
/// become fractions of the source's, 0 the whole side, and compass offsets below 1 fractions of
/// the source's sides; then `ImageProcessors.Crop` places it by its gravity (`smart` included).
///
/// Thread-safe (immutable).
struct SourceAreaCrop: ImageProcessing, Hashable {
    let area: ThumbnailOptions.CropArea
    /// `g`'s gravity, for an area without its own.
    let defaultGravity: ImageProcessors.Gravity

    /// E.g. `com.comet.server.cropArea?width=0.5&height=0&gravity=sm`.
    var identifier: String {
        "com.comet.server.cropArea?width=\(OptionNumber.spelling(area.width))"
            + "&height=\(OptionNumber.spelling(area.height))&gravity=\(area.gravity ?? defaultGravity)"
    }

    func process(_ image: Image) throws -> Image {
        func side(_ value: Double, of length: Int) -> Int {
            value == 0 ? length : value < 1 ? max(1, Int((value * Double(length)).rounded())) : Int(value)
        }
        var gravity = area.gravity ?? defaultGravity
        if case .compass(let point, let x, let y) = gravity {
            func offset(_ value: Double, of length: Int) -> Double {
                abs(value) < 1 ? value * Double(length) : value
            }
            gravity = .compass(point, offsetX: offset(x, of: image.width), offsetY: offset(y, of: image.height))
        }
        return try ImageProcessors.Crop(
            width: side(area.width, of: image.width), height: side(area.height, of: image.height), gravity: gravity
        ).process(image)
    }
}
