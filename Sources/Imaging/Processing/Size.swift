import Foundation

/// A size in whole pixels, e.g. a resize target.
///
/// Foundation's `CGSize` is accepted too where a processor takes a size; on Linux there is no
/// screen scale, so a `CGSize` is read as pixels unless a ``ImageProcessors/Unit/points(scale:)``
/// unit says otherwise.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size in pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A `CGSize` in `unit`, rounded to whole pixels (at least 1 each way); never traps: NaN,
    /// zero and negative sides become 1, infinite and huge ones 2^30 (see
    /// ``ImageProcessors/Unit/side(_:)``).
    public init(_ size: CGSize, unit: ImageProcessors.Unit = .pixels) {
        self.init(width: unit.side(Double(size.width)), height: unit.side(Double(size.height)))
    }

    /// "<width>×<height>".
    public var description: String { "\(width)×\(height)" }
}
