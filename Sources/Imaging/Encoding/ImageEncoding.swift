import Foundation

/// An encoder for one image format: a bitmap in, a file's bytes out.
///
/// Implementations must be thread-safe (`Sendable`): a pipeline encodes on its workers.
public protocol ImageEncoding: Sendable {
    /// The format the encoder writes.
    var type: AssetType { get }
    /// Encodes `image`. Throws ``ImageEncodingError`` with the reason on failure.
    func encode(_ image: Image) throws(ImageEncodingError) -> Data
}

extension ImageEncoders {
    /// PNG with libpng (see ``ImageEncoders/png(_:compressionLevel:)``): lossless, keeps alpha.
    public struct PNG: ImageEncoding, Hashable {
        /// zlib's level, 0...9. Default 6.
        public var compressionLevel: Int

        /// Creates the encoder.
        public init(compressionLevel: Int = 6) { self.compressionLevel = compressionLevel }

        public var type: AssetType { .png }

        public func encode(_ image: Image) throws(ImageEncodingError) -> Data {
            try ImageEncoders.png(image, compressionLevel: compressionLevel)
        }
    }

    /// JPEG with libjpeg-turbo (see ``ImageEncoders/jpeg(_:quality:progressive:)``): alpha is
    /// dropped.
    public struct JPEG: ImageEncoding, Hashable {
        /// 0...1. Default 0.85.
        public var quality: Double
        /// Writes a progressive JPEG. Default `false`.
        public var isProgressive: Bool

        /// Creates the encoder.
        public init(quality: Double = ImageFormat.jpeg.defaultQuality!, isProgressive: Bool = false) {
            self.quality = quality
            self.isProgressive = isProgressive
        }

        public var type: AssetType { .jpeg }

        public func encode(_ image: Image) throws(ImageEncodingError) -> Data {
            try ImageEncoders.jpeg(image, quality: quality, progressive: isProgressive)
        }
    }
}
