import Comet
import Foundation

/// What `/info/…` answers about a source image, as JSON:
/// `{"blurhash":"LEHV6n…","bytes":48213,"color_profile":"Display P3","format":"jpeg",
/// "frames":1,"height":480,"orientation":6,"width":640}`.
///
/// Made from one small decode: JPEGs decode at a reduced DCT scale and WebPs through libwebp's
/// scaler, other formats at their own size (under the same limits as thumbnails), and the
/// BlurHash is taken from a copy at most ``blurHashSide`` pixels a side. Thread-safe (a value).
public struct SourceInfo: Sendable, Hashable, Codable {
    /// The format, as Comet names it: `jpeg`, `png`, `gif`, `webp`, `avif`, `heic` or `jxl`.
    public var format: String
    /// The width as shown: the file's, turned by its EXIF orientation (the canvas for an
    /// animation).
    public var width: Int
    /// The height as shown, as ``width``.
    public var height: Int
    /// The EXIF orientation the file declares, 1…8 (1: none, or upright).
    public var orientation: Int
    /// The frames of an animated GIF or WebP (counted from the file's structure); 1 otherwise.
    public var frames: Int
    /// The name of the file's colour profile (an ICC profile's description, or what PNG's and
    /// AVIF's colour chunks describe); `nil` when the file has none, or one that cannot be used.
    public var colorProfile: String?
    /// The source's size in bytes.
    public var bytes: Int
    /// The BlurHash of the upright image (of the first frame), or `nil` when `bh:0` asked for
    /// none.
    public var blurHash: String?

    private enum CodingKeys: String, CodingKey {
        case format, width, height, orientation, frames, bytes
        case colorProfile = "color_profile"
        case blurHash = "blurhash"
    }

    /// Writes every key, `null` for a missing profile or BlurHash.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(orientation, forKey: .orientation)
        try container.encode(frames, forKey: .frames)
        try container.encode(colorProfile, forKey: .colorProfile)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(blurHash, forKey: .blurHash)
    }

    /// The longest side of the copy the BlurHash is computed on: its cost is that copy's pixels
    /// times the components, and a placeholder shows no more detail.
    public static let blurHashSide = 64

    /// Creates an answer.
    public init(
        format: String, width: Int, height: Int, orientation: Int, frames: Int, colorProfile: String?, bytes: Int,
        blurHash: String?
    ) {
        (self.format, self.width, self.height, self.orientation) = (format, width, height, orientation)
        (self.frames, self.colorProfile, self.bytes, self.blurHash) = (frames, colorProfile, bytes, blurHash)
    }

    /// Reads `data` (a whole source file) under `limits`, with `options`' BlurHash. Throws
    /// ``ServiceError``: 422 when the image is larger than the limits allow, 422 when it is no
    /// image Comet decodes.
    public static func make(from data: Data, options: InfoOptions, limits: ImageDecodingLimits) throws(ServiceError)
        -> SourceInfo
    {
        let decodingOptions = ImageDecodingOptions(
            limits: limits, downsampling: .maxPixelSize(blurHashSide))
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoders.decode(data, options: decodingOptions)
        } catch {
            if case .tooLarge = error { throw .tooLarge("the source image is too large: \(error)") }
            throw .undecodable("the source is not a decodable image: \(error)")
        }
        let turned = decoded.orientation.swapsDimensions
        var blurHash: String?
        if let components = options.blurHashComponents {
            let fit = ImageProcessors.Resize(
                size: Size(width: blurHashSide, height: blurHashSide), contentMode: .aspectFit, filter: .areaAverage)
            let small = (try? fit.process(decoded.image)) ?? decoded.image
            blurHash = BlurHash.encode(small, xComponents: components.x, yComponents: components.y)
        }
        return SourceInfo(
            format: decoded.type.rawValue,
            width: turned ? decoded.sourceHeight : decoded.sourceWidth,
            height: turned ? decoded.sourceWidth : decoded.sourceHeight,
            orientation: decoded.orientation.rawValue,
            frames: AnimationHeader(data).map { max($0.frameCount, 1) } ?? 1,
            colorProfile: profileName(decoded.colorHandling), bytes: data.count, blurHash: blurHash)
    }

    /// The JSON body: keys sorted, so equal answers are equal bytes.
    public var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { [UInt8]($0) } ?? []
    }

    /// The profile's name from what the decoder did with it.
    private static func profileName(_ handling: ColorHandling) -> String? {
        switch handling {
        case .sRGB(let name), .converted(from: let name), .kept(let name): name.isEmpty ? nil : name
        case .untagged, .unusable: nil
        }
    }
}
