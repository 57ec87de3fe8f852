import CImageCodecs
import Foundation

extension ImageEncoders {
    /// Encodes `animation` as an animated WebP with libwebpmux (each frame a full canvas, as
    /// ``AnimatedImage`` holds them; the encoder stores only what changes). `quality` 0...1
    /// (default 0.8) or `lossless`. Every frame must have the first frame's size.
    public static func animatedWebP(
        _ animation: AnimatedImage, quality: Double = ImageFormat.webp.defaultQuality!, lossless: Bool = false
    )
        throws(ImageEncodingError) -> Data
    {
        let libwebpQuality = Float(min(max(quality, 0), 1) * 100)
        let loopCount = Int32(clamping: animation.loopCount)
        return try encodeFrames(of: animation, as: .webp, timeUnit: 1000) {
            pointers, durations, count, width, height, out, message in
            cic_webp_animation_encode(
                pointers, durations, count, width, height, Int(width) * 4, loopCount,
                libwebpQuality, lossless ? 1 : 0, out, message)
        }
    }

    /// Encodes `animation` as an animated GIF with giflib: colours on a fixed 216-colour cube
    /// with ordered dithering (GIF has 256 colours at most), alpha below 128 transparent, delays
    /// rounded to hundredths. The loop count is written as browsers read it back
    /// (``AnimatedImage/loopCount`` plays; 1 writes no loop extension).
    public static func gif(_ animation: AnimatedImage) throws(ImageEncodingError) -> Data {
        let loopCount: Int32 = animation.loopCount == 1 ? -1 : Int32(clamping: max(animation.loopCount - 1, 0))
        return try encodeFrames(of: animation, as: .gif, timeUnit: 100) {
            pointers, delays, count, width, height, out, message in
            cic_gif_encode(pointers, delays, count, width, height, Int(width) * 4, loopCount, out, message)
        }
    }

    /// The C encoder's inputs for `animation`: packed RGBA8 frames of one size, their durations
    /// in 1/`timeUnit` seconds; then the encoded bytes or the encoder's message.
    private static func encodeFrames(
        of animation: AnimatedImage, as type: AssetType, timeUnit: Double,
        _ encode: (
            UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>?, Int32, UInt32, UInt32,
            UnsafeMutablePointer<cic_buffer>, UnsafeMutablePointer<CChar>
        ) -> cic_status
    ) throws(ImageEncodingError) -> Data {
        let frames = animation.frames.map { $0.image.converted(to: .rgba8).compacted() }
        let width = frames[0].width, height = frames[0].height
        guard frames.allSatisfy({ $0.width == width && $0.height == height }) else {
            throw ImageEncodingError(type: type, reason: "every frame of an animation must be \(width)×\(height)")
        }
        let durations = animation.frames.map { Int32(clamping: Int(($0.duration * timeUnit).rounded())) }
        var out = cic_buffer()
        var message = CodecMessage()
        let status = withFramePointers(frames) { pointers in
            durations.withUnsafeBufferPointer { durations in
                message.withPointer {
                    encode(
                        pointers, durations.baseAddress, Int32(frames.count), UInt32(width), UInt32(height), &out, $0)
                }
            }
        }
        guard status == CIC_OK, let bytes = out.bytes else {
            cic_buffer_free(&out)
            throw ImageEncodingError(type: type, reason: message.text)
        }
        return Data(bytesNoCopy: bytes, count: out.length, deallocator: .free)
    }

    /// Calls `body` with a C array of the frames' pixel pointers (valid only inside `body`).
    private static func withFramePointers<R>(_ frames: [Image], _ body: (UnsafePointer<UnsafePointer<UInt8>?>) -> R)
        -> R
    {
        var pointers: [UnsafePointer<UInt8>?] = []
        func collect(_ index: Int) -> R {
            guard index < frames.count else { return pointers.withUnsafeBufferPointer { body($0.baseAddress!) } }
            return frames[index].withUnsafeBytes { bytes in
                pointers.append(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
                return collect(index + 1)
            }
        }
        return collect(0)
    }
}
