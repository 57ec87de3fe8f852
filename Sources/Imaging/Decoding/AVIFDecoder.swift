import CImageCodecs
import Foundation

/// Decodes AVIF files with libavif (dav1d on Debian): 8, 10 and 12 bits a sample (rounded to 8),
/// 4:2:0, 4:2:2, 4:4:4 and monochrome, alpha, odd sizes; the clean aperture (`clap`) crop, and
/// the rotation (`irot`) and mirror (`imir`) properties applied like an EXIF orientation (so
/// ``DecodedImage/orientation`` reports them, and ``ImageDecodingOptions/appliesOrientation``
/// `false` keeps the stored frame). An image sequence (animated AVIF) decodes its first frame.
/// AVIF has no reduced-size decode: ``ImageDecodingOptions/downsampling`` is ignored.
///
/// Stateless and thread-safe: one instance can decode on many threads at once.
public struct AVIFDecoder: ImageDecoding {
    /// Threads libavif's AV1 decoder may use for one image. Default 1: the pipeline already
    /// decodes several images at once.
    public var threadCount: Int

    /// Creates a decoder.
    public init(threadCount: Int = 1) { self.threadCount = threadCount }

    /// Decodes a complete AVIF file. The size the container declares is checked against the
    /// limits before any AV1 data is decoded; errors carry libavif's message.
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
        var info = cic_avif_info()
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let opened = message.withPointer {
            cic_avif_open(base, bytes.count, options.limits.cLimits, threads, &info, &status, $0)
        }
        let width = Int(info.width), height = Int(info.height)
        guard let decoder = opened else {
            throw decodingError(status, type: .avif, message: message.text, width: width, height: height)
        }
        defer { cic_avif_destroy(decoder) }
        let color = Self.resolveColor(decoder, monochrome: info.yuv_format == 4, options: options)
        var image = try Image(width: width, height: height, isOpaque: info.has_alpha == 0) {
            (pixels, bytesPerRow) throws(ImageDecodingError) in
            status = message.withPointer {
                cic_avif_decode_first(decoder, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow, $0)
            }
            guard status == CIC_OK else {
                throw decodingError(status, type: .avif, message: message.text, width: width, height: height)
            }
            color.apply(to: pixels, bytesPerRow: bytesPerRow, width: width, height: height)
        }
        if info.has_crop != 0 {
            image = image.cropped(
                x: Int(info.crop_x), y: Int(info.crop_y), width: Int(info.crop_width), height: Int(info.crop_height)
            ).compacted()
        }
        let orientation = Self.orientation(rotation: Int(info.rotation), mirror: Int(info.mirror))
        if options.appliesOrientation { image = image.applying(orientation) }
        return DecodedImage(
            image: image.withColorProfile(color.keptProfile), type: .avif, sourceWidth: width, sourceHeight: height,
            orientation: orientation, colorHandling: color.handling)
    }

    /// The `colr` boxes: an ICC profile wins over nclx codes (as browsers do).
    static func resolveColor(_ decoder: OpaquePointer, monochrome: Bool, options: ImageDecodingOptions)
        -> ColorResolution
    {
        var icc: UnsafePointer<UInt8>?
        var length = 0
        var primaries: Int32 = 2
        var transfer: Int32 = 2
        cic_avif_colour(decoder, &icc, &length, &primaries, &transfer)
        return .container(
            icc: icc, length: length, primaries: primaries, transfer: transfer,
            input: monochrome ? CIC_COLOUR_INPUT_GRAY : CIC_COLOUR_INPUT_RGB,
            keepsOriginalColors: options.keepsOriginalColors)
    }

    /// The EXIF orientation equal to HEIF's `irot` (anticlockwise quarter turns) followed by
    /// `imir` (0: top and bottom exchanged; 1: left and right exchanged; -1: none).
    static func orientation(rotation: Int, mirror: Int) -> ImageOrientation {
        switch (rotation & 3, mirror) {
        case (0, 1), (2, 0): .upMirrored
        case (0, 0), (2, 1): .downMirrored
        case (1, 0), (3, 1): .leftMirrored
        case (1, 1), (3, 0): .rightMirrored
        case (1, _): .left
        case (2, _): .down
        case (3, _): .right
        default: .up
        }
    }
}
