import Comet
import Foundation

extension Format where T == Imaging.Image {
    /// An image format whose disk level stores images with `encoder` (any Comet
    /// ``ImageEncoding``: `ImageEncoders.WebP()`, `.PNG()`, `.JPEG(quality:)`, `.AVIF()`)
    /// instead of Haneke's PNG-or-JPEG choice. Images that fail to encode are not stored on disk.
    /// Reading back goes through Comet's decoder registry, so every format it decodes works.
    public init(
        name: String, diskCapacity: UInt64 = UInt64.max, encoder: any ImageEncoding,
        transform: ((T) -> T)? = nil
    ) {
        self.init(name: name, diskCapacity: diskCapacity, transform: transform)
        convertToData = { image in (try? encoder.encode(image)) ?? Data() }
    }
}
