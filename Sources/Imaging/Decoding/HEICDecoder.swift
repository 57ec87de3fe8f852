import CImageCodecs
import Foundation

/// Decodes HEIC and other HEIF still images with libheif (libde265 on Debian): the primary image
/// of the file, 8 bits or more a sample (reduced to 8), 4:2:0, 4:2:2, 4:4:4 and monochrome,
/// alpha, grids (the tiled images phones write). Image sequences are not decoded; a file that
/// has them decodes its primary still image.
///
/// **Orientation.** libheif applies the file's transformations while it decodes: the clean
/// aperture (`clap`), then the rotation (`irot`) and mirror (`imir`) properties, so the image
/// comes out as the file says to show it and ``DecodedImage/orientation`` is always `.up`
/// (there is nothing left to apply; ``ImageDecodingOptions/appliesOrientation`` has no effect).
/// An EXIF orientation inside the file is not applied on top: HEIF says `irot` and `imir`
/// decide, and EXIF's is informative (libheif and browsers do the same).
///
/// **Colour.** An ICC profile (`colr` `prof`/`rICC`) wins over nclx codes, as with AVIF; the
/// pixels are converted to sRGB unless ``ImageDecodingOptions/keepsOriginalColors``.
///
/// **Limits.** The boxes are read first (no HEVC decoding) and the primary image's declared
/// size is checked against the limits before anything image-sized is allocated; libheif also
/// refuses any item with a side over ``ImageDecodingLimits/maxDimension`` while it reads.
/// The working memory libheif and libde265 will need is estimated from the boxes too and
/// checked against ``ImageDecodingLimits/maxDecoderMemory`` before decoding (libheif 1.15 has
/// no memory limit of its own): the YCbCr planes twice, counted as 4:4:4, then the RGB(A)
/// conversion, about 9 bytes a pixel at 8 bits (12 with alpha, 15 at 10 bits), so under the
/// default 256 MiB an 8-bit image decodes up to about 28 megapixels. HEIF has no reduced-size decode: ``ImageDecodingOptions/downsampling`` is ignored. What
/// libheif reports as a decoding warning (non-strict mode) goes to ``DecodedImage/warnings``;
/// with ``ImageDecodingOptions/isStrict`` it is an error.
///
/// Stateless and thread-safe: one instance can decode on many threads at once.
public struct HEICDecoder: ImageDecoding {
    /// Threads libheif may use to decode the tiles of one grid image. Default 1 (tiles decode
    /// on the calling thread): the pipeline already decodes several images at once.
    public var threadCount: Int

    /// Creates a decoder.
    public init(threadCount: Int = 1) { self.threadCount = threadCount }

    /// `true`: the declared size is checked before any HEVC data is decoded.
    public var checksLimitsBeforeDecoding: Bool { true }

    /// Decodes a complete HEIC/HEIF file's primary image. Errors carry libheif's message.
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
        var info = cic_heif_info()
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let opened = message.withPointer {
            cic_heif_open(base, bytes.count, options.limits.cLimits, threads, &info, &status, $0)
        }
        guard let decoder = opened else {
            throw decodingError(
                status, type: .heic, message: message.text, width: Int(info.width), height: Int(info.height))
        }
        defer { cic_heif_destroy(decoder) }
        let width = Int(info.width), height = Int(info.height)
        let sourceWidth = Int(info.coded_width), sourceHeight = Int(info.coded_height)
        let color = Self.resolveColor(decoder, options: options)
        var warningCount: Int32 = 0
        var warning = CodecMessage()
        let image = try Image(width: width, height: height, isOpaque: info.has_alpha == 0) {
            (pixels, bytesPerRow) throws(ImageDecodingError) in
            status = message.withPointer { messagePointer in
                warning.withPointer { warningPointer in
                    cic_heif_decode(
                        decoder, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow,
                        options.isStrict ? 1 : 0, &warningCount, warningPointer, messagePointer)
                }
            }
            guard status == CIC_OK else {
                throw decodingError(
                    status, type: .heic, message: message.text, width: sourceWidth, height: sourceHeight)
            }
            color.apply(to: pixels, bytesPerRow: bytesPerRow, width: width, height: height)
        }
        var warnings: [String] = []
        if warningCount > 0 {
            warnings.append(warningCount > 1 ? "\(warning.text) (and \(warningCount - 1) more)" : warning.text)
        }
        return DecodedImage(
            image: image.withColorProfile(color.keptProfile), type: .heic, sourceWidth: sourceWidth,
            sourceHeight: sourceHeight, orientation: .up, warnings: warnings, colorHandling: color.handling)
    }

    /// The `colr` boxes: an ICC profile wins over nclx codes (as for AVIF). A grey ICC profile
    /// (its header says `GRAY`) describes a monochrome image, which libheif hands over as
    /// R = G = B; libheif 1.15 does not say whether the coded image is monochrome otherwise.
    static func resolveColor(_ decoder: OpaquePointer, options: ImageDecodingOptions) -> ColorResolution {
        var icc: UnsafePointer<UInt8>?
        var length = 0
        var primaries: Int32 = 2
        var transfer: Int32 = 2
        cic_heif_colour(decoder, &icc, &length, &primaries, &transfer)
        // libheif 1.15 does not say whether an image is grey: a grey profile says so.
        let isGray = icc.map {
            length >= 20 && Array(UnsafeBufferPointer(start: $0 + 16, count: 4)) == Array("GRAY".utf8)
        }
        return .container(
            icc: icc, length: length, primaries: primaries, transfer: transfer,
            input: isGray == true ? CIC_COLOUR_INPUT_GRAY : CIC_COLOUR_INPUT_RGB,
            keepsOriginalColors: options.keepsOriginalColors)
    }
}
