import CImageCodecs
import Foundation

/// Decodes the frames of an animated WebP with libwebpdemux's animation decoder (which
/// composites them: blending, disposal to the background).
enum WebPAnimationReader {
    /// All frames when `options.decodesAnimation`, else only the first, each converted with
    /// `color` (limits on frames are then
    /// not applied: one canvas is decoded).
    static func read(
        _ bytes: UnsafeRawBufferPointer, data: Data, info: cic_webp_info, color: ColorResolution,
        options: ImageDecodingOptions
    ) throws(ImageDecodingError) -> AnimatedImage {
        let width = Int(info.width), height = Int(info.height)
        var limits = options.limits
        if !options.decodesAnimation {
            limits.maxFrameCount = Int.max
            limits.maxAnimationPixelCount = Int.max
        }
        var message = CodecMessage()
        var status = CIC_OK
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard
            let animation = message.withPointer({
                cic_webp_animation_create(base, bytes.count, limits.cLimits, &status, $0)
            })
        else {
            throw decodingError(status, type: .webp, message: message.text, width: width, height: height)
        }
        defer { cic_webp_animation_destroy(animation) }
        let count = options.decodesAnimation ? Int(info.frame_count) : 1
        var frames: [AnimatedImage.Frame] = []
        frames.reserveCapacity(count)
        var previousEnd: Int32 = 0
        for _ in 0..<max(count, 1) {
            var end: Int32 = 0
            let image = try Image(width: width, height: height) { (pixels, bytesPerRow) throws(ImageDecodingError) in
                status = message.withPointer {
                    cic_webp_animation_next(
                        animation, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow, &end, $0)
                }
                guard status == CIC_OK else {
                    throw decodingError(status, type: .webp, message: message.text, width: width, height: height)
                }
                color.apply(to: pixels, bytesPerRow: bytesPerRow, width: width, height: height)
            }
            frames.append(
                AnimatedImage.Frame(
                    image: image.withColorProfile(color.keptProfile), duration: Double(end - previousEnd) / 1000))
            previousEnd = end
        }
        return AnimatedImage(type: .webp, frames: frames, loopCount: Int(info.loop_count), data: data)
    }
}
