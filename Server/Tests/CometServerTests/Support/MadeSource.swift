import Comet
import Foundation

/// Sources made on request for the origin's `/made/{name}` route: `{w}x{h}.{ext}`, or
/// `{w}x{h}-alpha.{ext}` with a transparent border, in JPEG (`jpg`), PNG, WebP, AVIF or GIF.
///
/// The picture is the origin's photo's gradient at that size: red follows the column, green the
/// row. With `-alpha`, the outer quarter of each side is fully transparent (so a 200×100 source
/// is opaque in its central 100×50). imgproxy's own tests mostly use a 200×100 source
/// (`test2.jpg`, `geometry.png`): `200x100.jpg` stands for it.
enum MadeSource {
    /// The encoded bytes and media type for `name`, or `nil` when the name is none of the forms.
    static func make(_ name: String) -> (bytes: [UInt8], type: String)? {
        let parts = name.split(separator: ".")
        guard parts.count == 2 else { return nil }
        var stem = Substring(parts[0])
        let alpha = stem.hasSuffix("-alpha")
        if alpha { stem = stem.dropLast("-alpha".count) }
        let sides = stem.split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2, (1...2000).contains(sides[0]), (1...2000).contains(sides[1]) else { return nil }
        let (width, height) = (sides[0], sides[1])
        let image = Image(width: width, height: height, isOpaque: !alpha) { pixels, bytesPerRow in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * bytesPerRow + x * 4
                    let inside = x >= width / 4 && x < width - width / 4 && y >= height / 4 && y < height - height / 4
                    pixels[offset] = UInt8(x * 255 / max(1, width - 1))
                    pixels[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                    pixels[offset + 2] = 128
                    pixels[offset + 3] = !alpha || inside ? 255 : 0
                }
            }
        }
        do {
            switch parts[1] {
            case "jpg": return ([UInt8](try ImageEncoders.jpeg(image, quality: 0.9)), "image/jpeg")
            case "png": return ([UInt8](try ImageEncoders.png(image)), "image/png")
            case "webp": return ([UInt8](try ImageEncoders.webp(image, quality: 0.9, lossless: false)), "image/webp")
            case "avif": return ([UInt8](try ImageEncoders.avif(image, quality: 0.8)), "image/avif")
            case "gif":
                let animation = AnimatedImage(
                    type: .gif, frames: [.init(image: image, duration: 0)], loopCount: 1, data: Data())
                return ([UInt8](try ImageEncoders.gif(animation)), "image/gif")
            default: return nil
            }
        } catch {
            return nil
        }
    }
}
