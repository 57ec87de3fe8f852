import Comet
import Foundation

/// Comet's decoded bitmap under Haneke's name: `Cache<Image>`, `Shared.imageCache`.
public typealias Image = Imaging.Image

/// Images are stored as PNG when they have transparency, as JPEG (quality 1) when opaque.
extension Imaging.Image: DataConvertible, DataRepresentable {
    public typealias Result = Imaging.Image

    /// The image decoded from bytes in any format of Comet's default decoder registry (an
    /// animation's first frame); `nil` for anything else or corrupt data.
    public static func convertFromData(_ data: Data) -> Imaging.Image? {
        try? Imaging.Image(data: data)
    }

    /// PNG if the image has transparency, else JPEG at quality 1; `nil` if encoding fails.
    public func asData() -> Data! { hnk_data() }

    // Haneke's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// PNG if the image has transparency, else JPEG at `compressionQuality` (0...1).
    public func hnk_data(compressionQuality: Float = 1.0) -> Data! {
        if isOpaque {
            return try? jpegData(compressionQuality: Double(min(max(compressionQuality, 0), 1)))
        }
        return try? pngData()
    }
}
