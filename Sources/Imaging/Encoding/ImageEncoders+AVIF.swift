import Foundation

extension ImageEncoders {
    /// AVIF with libavif (see ``ImageEncoders/avif(_:quality:speed:)``): 8-bit 4:2:0, keeps alpha.
    public struct AVIF: ImageEncoding, Hashable {
        /// 0...1. Default 0.6.
        public var quality: Double
        /// The AV1 encoder's speed, 0 (slowest, smallest) ... 10. Default 8.
        public var speed: Int

        /// Creates the encoder.
        public init(quality: Double = ImageFormat.avif.defaultQuality!, speed: Int = 8) {
            self.quality = quality
            self.speed = speed
        }

        /// ``AssetType/avif``.
        public var type: AssetType { .avif }

        /// Encodes `image` (see ``ImageEncoders/avif(_:quality:speed:)``).
        public func encode(_ image: Image) throws(ImageEncodingError) -> Data {
            try ImageEncoders.avif(image, quality: quality, speed: speed)
        }
    }
}
