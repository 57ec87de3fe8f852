import CImageCodecs
import Foundation

/// Decodes JPEG files with libjpeg-turbo: baseline, progressive, grayscale, CMYK/YCCK (Adobe
/// inverted or not), restart markers, arithmetic coding; EXIF orientation; decode-time DCT
/// downsampling (1/2, 1/4, 1/8) for thumbnails; the APP2 ICC profile, applied to each row as it
/// is decoded (see ``ImageDecodingOptions/keepsOriginalColors``). A CMYK file without a
/// profile is converted naively (R = (255 − C)(255 − K)/255, as browsers and Pillow do).
///
/// Stateless and thread-safe: one instance can decode on many threads at once.
public struct JPEGDecoder: ImageDecoding {
    /// Creates a decoder.
    public init() {}

    /// `true`: the header's dimensions are checked against the limits before anything is allocated.
    public var checksLimitsBeforeDecoding: Bool { true }

    /// Decodes a complete JPEG file. Limits are checked after the header is read and before the
    /// bitmap is allocated. Corrupt data that libjpeg conceals is reported in
    /// ``DecodedImage/warnings`` (or thrown when ``ImageDecodingOptions/isStrict``).
    public func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        guard !data.isEmpty else { throw .emptyData }
        let result: Result<DecodedImage, ImageDecodingError> = data.withUnsafeBytes { bytes in
            Result { () throws(ImageDecodingError) in try Self.decode(bytes, options: options) }
        }
        return try result.get()
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions)
        throws(ImageDecodingError) -> DecodedImage
    {
        guard let decoder = cic_jpeg_create(options.limits.cLimits, options.isStrict ? 1 : 0) else {
            throw .corrupt(.jpeg, reason: "libjpeg could not start")
        }
        defer { cic_jpeg_destroy(decoder) }
        let orientation = EXIFOrientationReader.orientation(inJPEG: bytes)
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)

        var info = cic_jpeg_info()
        var status = cic_jpeg_read_header(decoder, base, bytes.count, &info)
        let denominator = Self.denominator(for: options, info: info, orientation: orientation)
        if status == CIC_OK {
            status = cic_jpeg_set_scale(decoder, denominator, &info)
        }
        guard status == CIC_OK else {
            throw decodingError(
                status, type: .jpeg, message: String(cString: cic_jpeg_message(decoder)),
                width: Int(info.width), height: Int(info.height))
        }
        let color = Self.resolveColor(decoder, options: options)
        var image = try Image(width: Int(info.output_width), height: Int(info.output_height), isOpaque: true) {
            (pixels, bytesPerRow) throws(ImageDecodingError) in
            status = cic_jpeg_decode(decoder, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow)
            guard status == CIC_OK else {
                throw decodingError(
                    status, type: .jpeg, message: String(cString: cic_jpeg_message(decoder)),
                    width: Int(info.width), height: Int(info.height))
            }
        }
        if denominator > 1 {
            let denominator = Int(denominator)
            // libjpeg rounds a reduced size up: the last column and row then stand for a partial
            // block (2725 / 8 gives 341 pixels for 340.6), so the image's scale would not be the
            // file's over 1/d, and a resize framed on it would be off by a fraction of a pixel.
            // Keep whole blocks only, as libvips' shrink-on-load does.
            let whole = (max(1, Int(info.width) / denominator), max(1, Int(info.height) / denominator))
            if whole != (image.width, image.height) {
                image = image.cropped(x: 0, y: 0, width: whole.0, height: whole.1)
            }
        }
        if options.appliesOrientation { image = image.applying(orientation) }
        if denominator > 1 {
            // The fraction of a pixel the dropped partial blocks stood for lies at the stored
            // frame's right and bottom edges, wherever a rotation or mirroring moves it: only an
            // image left as stored gets the file's exact sides.
            let stored = !options.appliesOrientation || orientation == .up
            let d = Double(denominator)
            image.decodeReduction = DecodeReduction(
                factor: Int(denominator),
                width: stored ? max(Double(image.width), Double(info.width) / d) : Double(image.width),
                height: stored ? max(Double(image.height), Double(info.height) / d) : Double(image.height))
        }
        image.colorProfile = color.keptProfile
        return DecodedImage(
            image: image, type: .jpeg, sourceWidth: Int(info.width), sourceHeight: Int(info.height),
            orientation: orientation, warnings: Self.warnings(decoder), colorHandling: color.handling
        )
    }

    /// After the header: resolves the APP2 ICC profile and hands the decoder the transform its
    /// rows go through (one-shot and incremental decoding).
    static func resolveColor(_ decoder: OpaquePointer, options: ImageDecodingOptions) -> ColorResolution {
        var icc: UnsafePointer<UInt8>?
        var length = 0
        // On the stack: most files have no profile, and this runs for every decode.
        let failure: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CIC_MESSAGE_CAPACITY)) {
            guard cic_jpeg_icc_profile(decoder, &icc, &length, $0.baseAddress!) != CIC_OK else { return nil }
            return String(cString: $0.baseAddress!)
        }
        if let failure { return .unusable(failure) }
        guard let icc else { return .untagged }
        let color = ColorResolution.icc(
            UnsafeBufferPointer(start: icc, count: length), input: cic_jpeg_colour_input(decoder),
            keepsOriginalColors: options.keepsOriginalColors)
        if let transform = color.transform { cic_jpeg_set_colour(decoder, transform.pointer) }
        return color
    }

    /// The DCT scale denominator `options` call for, for the declared size in `info`.
    static func denominator(for options: ImageDecodingOptions, info: cic_jpeg_info, orientation: ImageOrientation)
        -> Int32
    {
        guard let downsampling = options.downsampling else { return 1 }
        return Int32(
            downsampling.jpegScaleDenominator(
                width: Int(info.width), height: Int(info.height), orientation: orientation))
    }

    static func warnings(_ decoder: OpaquePointer) -> [String] {
        let count = Int(cic_jpeg_warning_count(decoder))
        guard count > 0 else { return [] }
        let first = String(cString: cic_jpeg_warning(decoder))
        return count == 1 ? [first] : [first, "\(count - 1) more warning\(count == 2 ? "" : "s")"]
    }
}
