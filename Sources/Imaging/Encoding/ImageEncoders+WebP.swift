import Foundation

extension ImageEncoders {
    /// WebP with libwebp (see ``ImageEncoders/webp(_:quality:lossless:)``): lossy or lossless,
    /// keeps alpha. Usable as a pipeline's disk-cache encoder:
    /// `$0.makeImageEncoder = { _ in ImageEncoders.WebP(quality: 0.8) }`.
    public struct WebP: ImageEncoding, Hashable {
        /// 0...1 (libwebp quality 0...100); with ``isLossless`` the compression effort. Default 0.8.
        public var quality: Double
        /// Writes lossless WebP (exact pixels). Default `false`.
        public var isLossless: Bool

        /// Creates the encoder.
        public init(quality: Double = ImageFormat.webp.defaultQuality!, isLossless: Bool = false) {
            self.quality = quality
            self.isLossless = isLossless
        }

        /// ``AssetType/webp``.
        public var type: AssetType { .webp }

        /// Encodes `image` (see ``ImageEncoders/webp(_:quality:lossless:)``).
        public func encode(_ image: Image) throws(ImageEncodingError) -> Data {
            try ImageEncoders.webp(image, quality: quality, lossless: isLossless)
        }
    }
}
