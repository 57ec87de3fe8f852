import CImageCodecs
import Foundation

/// Decodes WebP files with libwebp: lossy (VP8), lossless (VP8L), alpha, extended (VP8X) and
/// animated files (the first frame, or every frame with ``ImageDecodingOptions/decodesAnimation``).
///
/// Thumbnails decode small: with ``ImageDecodingOptions/downsampling`` set, libwebp's
/// area-averaging scaler writes the smallest size that still satisfies the target, so a
/// 4000×3000 WebP made into a 256-pixel thumbnail never becomes a 48 MB bitmap. Animated files
/// decode at full size.
///
/// Stateless and thread-safe: one instance can decode on many threads at once.
public struct WebPDecoder: ImageDecoding {
    /// Creates a decoder.
    public init() {}

    /// Decodes a complete WebP file. The declared size (the canvas of an animation) is checked
    /// against the limits before anything image-sized is allocated; a truncated or corrupt file
    /// throws with libwebp's status.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        try decodingBytes(of: data) { bytes throws(ImageDecodingError) in
            try Self.decode(bytes, data: data, options: options)
        }
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, data: Data, options: ImageDecodingOptions)
        throws(ImageDecodingError) -> DecodedImage
    {
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var message = CodecMessage()
        var info = cic_webp_info()
        let status = message.withPointer { cic_webp_read_info(base, bytes.count, options.limits.cLimits, &info, $0) }
        let width = Int(info.width), height = Int(info.height)
        guard status == CIC_OK else {
            throw decodingError(status, type: .webp, message: message.text, width: width, height: height)
        }
        let color =
            Self.resolveColor(base, count: bytes.count, options: options)
            ?? .unusable("the ICCP chunk is cut short, or missing though the VP8X flags announce it")
        if info.has_animation != 0 {
            let animation = try WebPAnimationReader.read(bytes, data: data, info: info, color: color, options: options)
            return DecodedImage(
                image: animation.frames[0].image, type: .webp, sourceWidth: width, sourceHeight: height,
                animation: options.decodesAnimation ? animation : nil, colorHandling: color.handling)
        }
        let output = options.downsampling?.scaledSize(width: width, height: height) ?? (width: width, height: height)
        try options.limits.checkOutputSize(
            width: output.width, height: output.height, sourceWidth: width, sourceHeight: height)
        var outputStatus = CIC_OK
        let image = try Image(width: output.width, height: output.height, isOpaque: info.has_alpha == 0) {
            (pixels, bytesPerRow) throws(ImageDecodingError) in
            outputStatus = message.withPointer {
                cic_webp_decode(
                    base, bytes.count, UInt32(output.width), UInt32(output.height),
                    pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow, $0)
            }
            guard outputStatus == CIC_OK else {
                throw decodingError(outputStatus, type: .webp, message: message.text, width: width, height: height)
            }
            color.apply(to: pixels, bytesPerRow: bytesPerRow, width: output.width, height: output.height)
        }
        return DecodedImage(
            image: image.withColorProfile(color.keptProfile), type: .webp, sourceWidth: width, sourceHeight: height,
            colorHandling: color.handling)
    }

    /// The ICCP chunk's profile, resolved (the chunks before the image data suffice), or `nil`
    /// when the flags promise a profile that `count` bytes do not hold yet (a profile cut short in
    /// a complete file is unusable).
    static func resolveColor(_ base: UnsafePointer<UInt8>, count: Int, options: ImageDecodingOptions)
        -> ColorResolution?
    {
        var length = 0
        var incomplete: Int32 = 0
        guard let icc = cic_webp_icc_profile(base, count, &length, &incomplete) else {
            return incomplete != 0 ? nil : .untagged
        }
        return ColorResolution.icc(
            UnsafeBufferPointer(start: icc, count: length), input: CIC_COLOUR_INPUT_RGB,
            keepsOriginalColors: options.keepsOriginalColors)
    }
}
