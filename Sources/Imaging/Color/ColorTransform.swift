import CImageCodecs
import Foundation

/// A reference to a C colour transform (cached in the C target, shared between decodes):
/// released when the last Swift owner goes.
final class ColorTransform: @unchecked Sendable {
    // @unchecked Sendable: the transform is immutable once built, and the C side converts with
    // it from any thread; the reference count is atomic.
    let pointer: OpaquePointer

    /// Takes over one reference.
    init(adopting pointer: OpaquePointer) { self.pointer = pointer }

    deinit { cic_colour_transform_release(pointer) }

    /// Converts the whole bitmap in place (for the codecs that decode it in one call).
    func convert(_ pixels: UnsafeMutableRawBufferPointer, bytesPerRow: Int, width: Int, height: Int) {
        cic_colour_convert(
            pointer, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(width),
            UInt32(height))
    }

    /// Whether the source is RGB (its numbers can be kept and its profile embedded).
    var isRGBSource: Bool { cic_colour_transform_is_rgb(pointer) != 0 }

    /// The source's description as ICC bytes.
    var iccData: Data {
        var length = 0
        guard let bytes = cic_colour_transform_icc(pointer, &length) else { return Data() }
        return Data(bytes: bytes, count: length)
    }
}

/// The C target's cache of transforms, one per distinct colour description (bounded).
enum ColorTransformCache {
    /// Descriptions held now.
    static var count: Int { Int(cic_colour_cache_count()) }
    /// The most descriptions held at once.
    static var capacity: Int { Int(CIC_COLOUR_CACHE_CAPACITY) }
}

extension ColorTransformCache {
    /// The transform RGB pixels tagged with `profile` convert with (a cached one when the profile
    /// was seen), or `nil` when there is nothing to convert or the profile is unusable.
    static func transform(for profile: ColorProfile) -> ColorTransform? {
        profile.iccData.withUnsafeBytes {
            ColorResolution.icc($0.bindMemory(to: UInt8.self), input: CIC_COLOUR_INPUT_RGB, keepsOriginalColors: false)
                .transform
        }
    }
}
