import CImageCodecs
import Foundation

/// Decodes GIF files with giflib: the first frame by default, every frame composited with
/// ``ImageDecodingOptions/decodesAnimation`` (disposal methods, transparency, interlacing,
/// local palettes, per-frame delays, the NETSCAPE2.0 loop count).
///
/// The canvas starts transparent and "restore to background" clears to transparent, as browsers
/// do. The canvas size, the frame count and frames × canvas pixels are checked against the
/// limits after a walk over the file's blocks, before any pixel is decoded. GIF has no
/// reduced-size decode: ``ImageDecodingOptions/downsampling`` is ignored.
///
/// Stateless and thread-safe: one instance can decode on many threads at once.
public struct GIFDecoder: ImageDecoding {
    /// Creates a decoder.
    public init() {}

    /// Decodes a complete GIF file. An animation whose later frames are damaged or cut short
    /// keeps the frames before the damage and reports it in ``DecodedImage/warnings``; damage in
    /// the first frame throws.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        try decodingBytes(of: data) { bytes throws(ImageDecodingError) in
            try Self.decode(bytes, data: data, options: options)
        }
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, data: Data, options: ImageDecodingOptions)
        throws(ImageDecodingError) -> DecodedImage
    {
        var message = CodecMessage()
        var status = CIC_OK
        var info = cic_gif_info()
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let opened = message.withPointer {
            cic_gif_open(
                base, bytes.count, options.limits.cLimits, options.decodesAnimation ? 1 : 0, &info, &status, $0)
        }
        let width = Int(info.width), height = Int(info.height)
        guard let decoder = opened else {
            throw decodingError(status, type: .gif, message: message.text, width: width, height: height)
        }
        defer { cic_gif_destroy(decoder) }
        let color = Self.resolveColor(base, count: bytes.count, options: options)
        let count = options.decodesAnimation ? Int(info.frame_count) : 1
        var frames: [AnimatedImage.Frame] = []
        var warnings: [String] = []
        for index in 0..<count {
            var delay: UInt32 = 0
            do {
                let image = try Image(width: width, height: height) {
                    (pixels, bytesPerRow) throws(ImageDecodingError) in
                    status = message.withPointer {
                        cic_gif_next_frame(
                            decoder, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow, &delay, $0)
                    }
                    guard status == CIC_OK else {
                        throw decodingError(status, type: .gif, message: message.text, width: width, height: height)
                    }
                    color.apply(to: pixels, bytesPerRow: bytesPerRow, width: width, height: height)
                }
                frames.append(
                    AnimatedImage.Frame(image: image.withColorProfile(color.keptProfile), duration: Double(delay) / 100)
                )
            } catch {
                guard index > 0, case .corrupt = error else { throw error }
                warnings.append("frame \(index + 1) of \(count): \(message.text); the animation stops before it")
                break
            }
        }
        let animation =
            options.decodesAnimation && info.frame_count > 1
            ? AnimatedImage(
                type: .gif, frames: frames, loopCount: Self.playCount(loopCount: Int(info.loop_count)), data: data)
            : nil
        return DecodedImage(
            image: frames[0].image, type: .gif, sourceWidth: width, sourceHeight: height,
            warnings: warnings, animation: animation, colorHandling: color.handling)
    }

    /// The `ICCRGBG1` application extension's profile, resolved.
    static func resolveColor(_ base: UnsafePointer<UInt8>, count: Int, options: ImageDecodingOptions)
        -> ColorResolution
    {
        var buffer = cic_buffer()
        defer { cic_buffer_free(&buffer) }
        guard cic_gif_icc_profile(base, count, &buffer) == CIC_OK else {
            return .unusable("the ICCRGBG1 extension is cut short")
        }
        guard buffer.length > 0 else { return .untagged }
        return ColorResolution.icc(
            UnsafeBufferPointer(start: buffer.bytes, count: buffer.length), input: CIC_COLOUR_INPUT_RGB,
            keepsOriginalColors: options.keepsOriginalColors)
    }

    /// Plays of the animation from the NETSCAPE2.0 loop count, as browsers play it: absent, once;
    /// 0, forever (0); n, the first play and n repetitions.
    static func playCount(loopCount: Int) -> Int {
        loopCount < 0 ? 1 : (loopCount == 0 ? 0 : loopCount + 1)
    }
}
