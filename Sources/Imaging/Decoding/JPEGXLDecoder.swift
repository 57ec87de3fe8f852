import CImageCodecs
import Foundation

/// Decodes JPEG XL files with libjxl: bare codestreams and the ISO BMFF container, lossless
/// (modular) and lossy (VarDCT, XYB), recompressed JPEGs, grey, alpha, any bit depth (reduced to
/// 8 by libjxl). An animation decodes its first frame (as a still image: ``DecodedImage/animation``
/// stays `nil`, whatever ``ImageDecodingOptions/decodesAnimation`` asks).
///
/// **Orientation.** The codestream's orientation (EXIF's eight values) is reported in
/// ``DecodedImage/orientation`` and applied like a JPEG's EXIF orientation: libjxl is asked to
/// keep the stored frame, and the image is turned afterwards, so
/// ``ImageDecodingOptions/appliesOrientation`` `false` gives the stored frame.
///
/// **Colour.** The ICC profile of the pixels libjxl hands over (its
/// `JXL_COLOR_PROFILE_TARGET_DATA`: for a lossy XYB image, the space libjxl converts to) is
/// resolved like any embedded profile, so the numbers and the profile always match. libjxl has
/// no colour management: for a lossy image whose original profile is an ICC profile it cannot
/// describe, it is asked for sRGB (it would otherwise give linear sRGB, which loses the shadows
/// in 8 bits); ``ImageDecodingOptions/keepsOriginalColors`` then has no original numbers to keep.
///
/// **Limits.** The declared size is checked against the limits as soon as libjxl has read the
/// header, before anything image-sized is allocated; so is the working memory libjxl will
/// need, estimated from the header against ``ImageDecodingLimits/maxDecoderMemory`` (libjxl
/// 0.7 has no limit of its own, and its memory manager does not see its image buffers). The
/// header does not say whether a lossy (XYB) image is VarDCT or modular, so it is counted as
/// modular, the costlier: about 20 bytes a pixel, 16 more a pixel for alpha or any other
/// extra channel; a lossless image about 4 bytes a channel a pixel. Under the default 256 MiB
/// a lossy image decodes up to about 12 megapixels, a lossless RGB one about 18. JPEG XL's
/// progressive downsampling is not used: ``ImageDecodingOptions/downsampling`` is ignored.
///
/// Stateless and thread-safe: one instance can decode on many threads at once.
public struct JPEGXLDecoder: ImageDecoding {
    /// Threads libjxl may use for one image. Default 1 (no thread pool): the pipeline already
    /// decodes several images at once.
    public var threadCount: Int

    /// Creates a decoder.
    public init(threadCount: Int = 1) { self.threadCount = threadCount }

    /// `true`: the declared size is checked before any image data is decoded.
    public var checksLimitsBeforeDecoding: Bool { true }

    /// Decodes a complete JPEG XL file (its first frame). libjxl gives no error messages: an
    /// error says at which stage the data was invalid or cut short.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        let threads = Int32(clamping: threadCount)
        return try decodingBytes(of: data) { bytes throws(ImageDecodingError) in
            try Self.decode(bytes, threads: threads, options: options)
        }
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, threads: Int32, options: ImageDecodingOptions)
        throws(ImageDecodingError) -> DecodedImage
    {
        var message = CodecMessage()
        var status = CIC_OK
        var info = cic_jxl_info()
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let opened = message.withPointer {
            cic_jxl_open(base, bytes.count, options.limits.cLimits, threads, &info, &status, $0)
        }
        let width = Int(info.width), height = Int(info.height)
        guard let decoder = opened else {
            throw decodingError(status, type: .jpegXL, message: message.text, width: width, height: height)
        }
        defer { cic_jxl_destroy(decoder) }
        let color = Self.resolveColor(decoder, gray: info.is_gray != 0, options: options)
        var image = try Image(width: width, height: height, isOpaque: info.has_alpha == 0) {
            (pixels, bytesPerRow) throws(ImageDecodingError) in
            status = message.withPointer {
                cic_jxl_decode_first(decoder, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow, $0)
            }
            guard status == CIC_OK else {
                throw decodingError(status, type: .jpegXL, message: message.text, width: width, height: height)
            }
            color.apply(to: pixels, bytesPerRow: bytesPerRow, width: width, height: height)
        }
        let orientation = ImageOrientation(rawValue: Int(info.orientation)) ?? .up
        if options.appliesOrientation { image = image.applying(orientation) }
        return DecodedImage(
            image: image.withColorProfile(color.keptProfile), type: .jpegXL, sourceWidth: width,
            sourceHeight: height, orientation: orientation, colorHandling: color.handling)
    }

    /// The profile of the returned numbers; grey images convert through a grey profile.
    static func resolveColor(_ decoder: OpaquePointer, gray: Bool, options: ImageDecodingOptions) -> ColorResolution {
        var icc: UnsafePointer<UInt8>?
        var length = 0
        cic_jxl_colour(decoder, &icc, &length)
        guard let icc else { return .untagged }
        return ColorResolution.icc(
            UnsafeBufferPointer(start: icc, count: length), input: gray ? CIC_COLOUR_INPUT_GRAY : CIC_COLOUR_INPUT_RGB,
            keepsOriginalColors: options.keepsOriginalColors)
    }
}
