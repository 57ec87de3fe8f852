import CImageCodecs
import Foundation

extension ImageDecodingLimits {
    /// The limits in the C target's form (negative values count as 0).
    var cLimits: cic_limits {
        cic_limits(
            max_dimension: UInt32(clamping: maxDimension),
            max_source_pixels: UInt64(clamping: maxSourcePixelCount),
            max_output_pixels: UInt64(clamping: maxPixelCount),
            max_decoder_memory: UInt64(clamping: maxDecoderMemory),
            max_scans: UInt32(clamping: maxScans),
            max_frames: UInt32(clamping: maxFrameCount),
            max_animation_pixels: UInt64(clamping: maxAnimationPixelCount)
        )
    }
}

extension ImageDecodingOptions.Downsampling {
    /// The largest JPEG DCT reduction (1, 2, 4 or 8) whose result, for a file of `width`×`height`
    /// pixels stored with `orientation`, still satisfies this target.
    func jpegScaleDenominator(width: Int, height: Int, orientation: ImageOrientation) -> Int {
        // Targets are in the upright frame; compare against the stored frame's sides.
        let (uprightWidth, uprightHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        for denominator in [8, 4, 2] {
            // Whole blocks only: the decoder drops libjpeg's rounded-up partial last column and row.
            let w = uprightWidth / denominator
            let h = uprightHeight / denominator
            switch self {
            case .maxPixelSize(let size):
                if max(w, h) >= size { return denominator }
            case .covering(let targetWidth, let targetHeight):
                if w >= targetWidth && h >= targetHeight { return denominator }
            }
        }
        return 1
    }
}

/// Translates a C status and message into the public error.
func decodingError(_ status: cic_status, type: AssetType, message: String, width: Int, height: Int)
    -> ImageDecodingError
{
    switch status {
    case CIC_TOO_LARGE, CIC_MEMORY_LIMIT:
        return .tooLarge(width: width, height: height, limit: message)
    case CIC_UNSUPPORTED:
        return .unsupportedFeature(type, reason: message)
    default:
        return .corrupt(type, reason: message.isEmpty ? "the decoder failed without a message" : message)
    }
}

extension ImageDecodingLimits {
    /// Throws `tooLarge` when a decoded bitmap of `width`×`height` exceeds ``maxPixelCount``
    /// (for decoders whose output size is known before decoding).
    func checkOutputSize(width: Int, height: Int, sourceWidth: Int, sourceHeight: Int) throws(ImageDecodingError) {
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixelCount, width <= maxDimension,
            height <= maxDimension
        else {
            throw .tooLarge(
                width: sourceWidth, height: sourceHeight, limit: "the maximum decoded pixel count of \(maxPixelCount)")
        }
    }
}

/// Runs a decoder's `body` over the bytes of `data` (which stay valid for the whole call);
/// empty data throws ``ImageDecodingError/emptyData`` first.
func decodingBytes(of data: Data, _ body: (UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodedImage)
    throws(ImageDecodingError) -> DecodedImage
{
    guard !data.isEmpty else { throw .emptyData }
    let result: Result<DecodedImage, ImageDecodingError> = data.withUnsafeBytes { bytes in
        Result { () throws(ImageDecodingError) in try body(bytes) }
    }
    return try result.get()
}

/// The message buffer every C entry point of the newer codecs fills on failure.
struct CodecMessage {
    private var buffer = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))

    /// Calls `body` with the buffer (for one C call).
    mutating func withPointer<R>(_ body: (UnsafeMutablePointer<CChar>) -> R) -> R {
        buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    /// What the library wrote (empty when nothing).
    var text: String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
