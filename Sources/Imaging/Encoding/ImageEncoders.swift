import CImageCodecs
import Foundation

/// PNG, JPEG, WebP and AVIF encoding of ``Image``s with libpng, libjpeg-turbo, libwebp and libavif.
///
/// Colour: an image without a ``Image/colorProfile`` holds sRGB numbers and is written untagged,
/// which every browser and viewer reads as sRGB (the smallest file, and what imgproxy and
/// libvips write when they strip profiles). An image that carries a profile (decoded with
/// ``ImageDecodingOptions/keepsOriginalColors``) is written with it embedded: JPEG APP2
/// chunks, PNG iCCP, WebP ICCP, AVIF colr. GIF encoding embeds nothing.
///
/// Encoding runs on the calling thread; every function is thread-safe.
public enum ImageEncoders {
    /// Encodes `image` as PNG. Premultiplied images are unpremultiplied first; images known to be
    /// opaque are written as RGB (smaller), others as RGBA. `compressionLevel`: zlib's 0...9,
    /// default 6.
    ///
    /// Grey: an image marked ``Image/isGray`` (one decoded from a grey PNG, or made grey by
    /// ``ImageProcessors/Grayscale``) and without a colour profile is written as 8-bit grey, or
    /// grey + alpha, when its pixels bear the mark out: they are checked first, and the check
    /// stops after the first row with a pixel whose red, green and blue differ (the image is then
    /// written as RGB or RGBA, as usual). The pixels are the same either way; a grey file has a
    /// third (half, with alpha) of the samples to compress. Unmarked images are not checked, so
    /// colour images pay nothing.
    public static func png(_ image: Image, compressionLevel: Int = 6) throws(ImageEncodingError) -> Data {
        let straight = image.converted(to: .rgba8)
        // An embedded profile is an RGB one (grey sources convert to sRGB), which a grey PNG
        // cannot carry.
        let gray = straight.isGray && straight.colorProfile == nil
        return try encode(.png) { out, message in
            straight.withUnsafeBytes { pixels in
                withProfile(of: straight) { icc, iccLength in
                    cic_png_encode(
                        pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(straight.width),
                        UInt32(straight.height), straight.bytesPerRow, straight.isOpaque ? 1 : 0, gray ? 1 : 0,
                        Int32(min(max(compressionLevel, 0), 9)), icc, iccLength, out, message)
                }
            }
        }
    }

    /// Encodes `image` as a baseline (or progressive) JPEG; alpha is dropped (colour as stored
    /// in straight alpha, no compositing). `quality`: 0...1, default 0.85 (libjpeg quality 85).
    public static func jpeg(
        _ image: Image, quality: Double = ImageFormat.jpeg.defaultQuality!, progressive: Bool = false
    )
        throws(ImageEncodingError) -> Data
    {
        let straight = image.converted(to: .rgba8)
        let libjpegQuality = Int32((min(max(quality, 0), 1) * 100).rounded())
        return try encode(.jpeg) { out, message in
            straight.withUnsafeBytes { pixels in
                withProfile(of: straight) { icc, iccLength in
                    cic_jpeg_encode(
                        pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(straight.width),
                        UInt32(straight.height), straight.bytesPerRow, max(libjpegQuality, 1), progressive ? 1 : 0,
                        icc, iccLength, out, message)
                }
            }
        }
    }

    /// Encodes `image` as WebP with libwebp: lossy at `quality` 0...1 (default 0.8, libwebp
    /// quality 80), or `lossless` (exact pixels, alpha and the colour of transparent pixels kept;
    /// `quality` is then the compression effort). Images known to be opaque carry no alpha.
    /// WebP is at most 16 383 pixels a side; larger images throw.
    public static func webp(_ image: Image, quality: Double = ImageFormat.webp.defaultQuality!, lossless: Bool = false)
        throws(ImageEncodingError)
        -> Data
    {
        let straight = image.converted(to: .rgba8)
        let libwebpQuality = Float(min(max(quality, 0), 1) * 100)
        return try encode(.webp) { out, message in
            straight.withUnsafeBytes { pixels in
                withProfile(of: straight) { icc, iccLength in
                    cic_webp_encode(
                        pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(straight.width),
                        UInt32(straight.height), straight.bytesPerRow, straight.isOpaque ? 1 : 0, libwebpQuality,
                        lossless ? 1 : 0, icc, iccLength, out, message)
                }
            }
        }
    }

    /// Encodes `image` as an 8-bit 4:2:0 AVIF with libavif (aom on Debian); alpha is kept unless
    /// the image is known to be opaque. `quality` 0...1 (default 0.6) maps to AV1 quantizers;
    /// `speed` 0...10 (default 8) trades size for time. Slower than WebP by an order of
    /// magnitude or more: see BENCHMARKS.md before using it for a disk cache.
    public static func avif(_ image: Image, quality: Double = ImageFormat.avif.defaultQuality!, speed: Int = 8)
        throws(ImageEncodingError) -> Data
    {
        let straight = image.converted(to: .rgba8)
        let avifQuality = Int32((min(max(quality, 0), 1) * 100).rounded())
        return try encode(.avif) { out, message in
            straight.withUnsafeBytes { pixels in
                withProfile(of: straight) { icc, iccLength in
                    cic_avif_encode(
                        pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(straight.width),
                        UInt32(straight.height), straight.bytesPerRow, straight.isOpaque ? 1 : 0, avifQuality,
                        Int32(clamping: speed), 1, icc, iccLength, out, message)
                }
            }
        }
    }

    /// Calls `body` with the image's ICC profile bytes, or with `nil` for an sRGB image.
    private static func withProfile<R>(of image: Image, _ body: (UnsafePointer<UInt8>?, Int) -> R) -> R {
        guard let profile = image.colorProfile, !profile.iccData.isEmpty else { return body(nil, 0) }
        return profile.iccData.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count) }
    }

    private static func encode(
        _ type: AssetType,
        _ body: (UnsafeMutablePointer<cic_buffer>, UnsafeMutablePointer<CChar>) -> cic_status
    ) throws(ImageEncodingError) -> Data {
        var out = cic_buffer()
        var message = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))
        let status = message.withUnsafeMutableBufferPointer { body(&out, $0.baseAddress!) }
        guard status == CIC_OK, let bytes = out.bytes else {
            cic_buffer_free(&out)
            let text = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            throw ImageEncodingError(type: type, reason: String(decoding: text, as: UTF8.self))
        }
        // Hand the C buffer to Data without copying; Data frees it.
        return Data(bytesNoCopy: bytes, count: out.length, deallocator: .free)
    }
}

extension Image {
    /// This image as PNG data (see ``ImageEncoders/png(_:compressionLevel:)``).
    public func pngData() throws(ImageEncodingError) -> Data {
        try ImageEncoders.png(self)
    }

    /// This image as JPEG data; `compressionQuality` 0...1 (see ``ImageEncoders/jpeg(_:quality:progressive:)``).
    public func jpegData(compressionQuality: Double = ImageFormat.jpeg.defaultQuality!) throws(ImageEncodingError)
        -> Data
    {
        try ImageEncoders.jpeg(self, quality: compressionQuality)
    }

    /// This image as AVIF data (see ``ImageEncoders/avif(_:quality:speed:)``).
    public func avifData(quality: Double = ImageFormat.avif.defaultQuality!) throws(ImageEncodingError) -> Data {
        try ImageEncoders.avif(self, quality: quality)
    }

    /// This image as WebP data (see ``ImageEncoders/webp(_:quality:lossless:)``).
    public func webpData(quality: Double = ImageFormat.webp.defaultQuality!, lossless: Bool = false)
        throws(ImageEncodingError) -> Data
    {
        try ImageEncoders.webp(self, quality: quality, lossless: lossless)
    }
}
