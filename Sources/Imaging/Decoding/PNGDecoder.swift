import CImageCodecs
import Foundation

/// Decodes PNG files with libpng: every colour type and bit depth (palette, gray, gray+alpha,
/// RGB, RGBA; 1 to 16 bits; tRNS transparency; Adam7 interlacing) to straight-alpha RGBA8.
/// 16-bit samples are rounded to 8 bits; gamma chunks are not applied (samples come out as
/// stored). PNG has no reduced-size decode, so ``ImageDecodingOptions/downsampling`` is ignored.
///
/// **Orientation.** The EXIF orientation in an `eXIf` chunk (before or after the image data) is
/// reported in ``DecodedImage/orientation`` and applied as a JPEG's is, unless
/// ``ImageDecodingOptions/appliesOrientation`` is `false`. A damaged chunk (a CRC error, a
/// truncated or malformed EXIF block) counts as no orientation; only the first chunk is read.
///
/// **Grey.** A grey source (colour type 0 or 4, or a palette of greys only) decodes to RGBA like any other, with
/// ``Image/isGray`` set, so that ``ImageEncoders/png(_:compressionLevel:)`` writes it grey again.
///
/// Stateless and thread-safe: one instance can decode on many threads at once.
public struct PNGDecoder: ImageDecoding {
    /// Creates a decoder.
    public init() {}

    /// `true`: the header's dimensions are checked against the limits before anything is allocated.
    public var checksLimitsBeforeDecoding: Bool { true }

    /// Decodes a complete PNG file. Limits are checked when the header is read, before the
    /// bitmap is allocated. A file that ends before its last row is an error.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        guard !data.isEmpty else { throw .emptyData }
        let session = try PNGDecodingSession(options: options)
        let status = data.withUnsafeBytes { bytes in
            cic_png_feed(session.decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        try session.check(status)
        return try session.finish()
    }
}

/// One libpng progressive reader and the bitmap it writes: shared by the one-shot and the
/// incremental PNG decoders. Not thread-safe; used by one thread at a time.
final class PNGDecodingSession {
    let decoder: OpaquePointer
    private(set) var info: cic_png_info?
    /// What the colour chunks resolved to (set with ``info``).
    private(set) var color = ColorResolution.untagged
    /// Whether the decoder converts the rows (interlaced files: only once the last pass is in).
    private(set) var convertsRows = false
    /// The eXIf chunk's orientation: `.up` until that chunk arrives, and for files without one.
    private(set) var orientation = ImageOrientation.up
    /// Whether the eXIf chunk was read (and ``orientation`` is final).
    private var readEXIF = false
    private let keepsOriginalColors: Bool
    let appliesOrientation: Bool

    init(options: ImageDecodingOptions) throws(ImageDecodingError) {
        guard let decoder = cic_png_create(options.limits.cLimits, options.keepsOriginalColors ? 1 : 0) else {
            throw .corrupt(.png, reason: "libpng could not start")
        }
        self.decoder = decoder
        self.keepsOriginalColors = options.keepsOriginalColors
        self.appliesOrientation = options.appliesOrientation
    }

    deinit { cic_png_destroy(decoder) }

    var message: String { String(cString: cic_png_message(decoder)) }

    /// Throws the error a failed feed reported; records the header once it is known.
    func check(_ status: cic_status) throws(ImageDecodingError) {
        if info == nil {
            var header = cic_png_info()
            if cic_png_header_ready(decoder, &header) != 0 {
                info = header
                readColor()
            }
        }
        readOrientation()
        guard status == CIC_OK else {
            var width: UInt32 = 0, height: UInt32 = 0
            cic_png_declared_size(decoder, &width, &height)
            throw decodingError(status, type: .png, message: message, width: Int(width), height: Int(height))
        }
    }

    /// Reads the orientation once the eXIf chunk has arrived (one call into C until then).
    private func readOrientation() {
        guard !readEXIF else { return }
        var length = 0
        guard let exif = cic_png_exif(decoder, &length) else { return }
        readEXIF = true
        orientation = EXIFOrientationReader.orientation(inPNGEXIF: UnsafeRawBufferPointer(start: exif, count: length))
    }

    private func readColor() {
        var converts: Int32 = 0
        guard var resolution = cic_png_colour(decoder, &converts)?.pointee else { return }
        // The decoder keeps its reference; the Swift side takes one of its own.
        if let transform = resolution.transform { cic_colour_transform_retain(transform) }
        color = ColorResolution(resolution, keepsOriginalColors: keepsOriginalColors)
        convertsRows = converts != 0
        resolution.transform = nil
    }

    var isFinished: Bool { cic_png_finished(decoder) != 0 }

    /// libpng's first warning about a colour chunk, or `nil`.
    var colorWarning: String? {
        let text = String(cString: cic_png_colour_warning(decoder))
        return text.isEmpty ? nil : text
    }

    /// The finished image, taking over the bitmap without a copy.
    func finish() throws(ImageDecodingError) -> DecodedImage {
        guard let info, isFinished else {
            let rows = cic_png_completed_rows(decoder)
            let detail = info.map { "\(rows) of \($0.height) rows" } ?? "the header was incomplete"
            throw .corrupt(.png, reason: "the file ends before the image data is complete (\(detail))")
        }
        let width = Int(info.width), height = Int(info.height)
        let pixels = cic_png_take_pixels(decoder)!
        let storage = PixelStorage(adoptingMallocBlock: UnsafeMutableRawPointer(pixels), byteCount: width * height * 4)
        var image = Image(
            width: width, height: height, pixelFormat: .rgba8, bytesPerRow: width * 4,
            isOpaque: info.has_alpha == 0, storage: storage, byteOffset: 0)
        image.isGray = isGray
        image.colorProfile = color.keptProfile
        readOrientation()
        if appliesOrientation { image = image.applying(orientation) }
        let warningCount = Int(cic_png_warning_count(decoder))
        var warnings: [String] = []
        if warningCount > 0 { warnings.append(message) }
        if warningCount > 1 { warnings.append("\(warningCount - 1) more warning\(warningCount == 2 ? "" : "s")") }
        return DecodedImage(
            image: image, type: .png, sourceWidth: width, sourceHeight: height, orientation: orientation,
            warnings: warnings, colorHandling: color.handling, colorWarning: colorWarning)
    }

    /// Whether the file is grey (colour type 0 or 4, or a palette of greys): its decoded pixels
    /// then have R = G = B, unless a colour conversion moved them (the encoder checks; see
    /// ``Image/isGray``).
    var isGray: Bool { (info?.is_gray ?? 0) != 0 }
}
