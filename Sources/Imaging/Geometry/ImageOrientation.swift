/// The EXIF orientation of an image: how the stored pixels must be turned to stand upright.
/// Raw values are EXIF's (1...8).
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Stored upright (EXIF 1).
    case up = 1
    /// Mirrored left to right (EXIF 2).
    case upMirrored = 2
    /// Rotated 180° (EXIF 3).
    case down = 3
    /// Mirrored top to bottom (EXIF 4).
    case downMirrored = 4
    /// Mirrored along the main diagonal: transposed (EXIF 5).
    case leftMirrored = 5
    /// Must be turned 90° clockwise to stand upright (EXIF 6, a phone held upright).
    case right = 6
    /// Mirrored along the anti-diagonal: transversed (EXIF 7).
    case rightMirrored = 7
    /// Must be turned 90° counter-clockwise to stand upright (EXIF 8).
    case left = 8

    /// `true` when applying the orientation swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    public var description: String {
        switch self {
        case .up: "up"
        case .upMirrored: "up, mirrored"
        case .down: "down"
        case .downMirrored: "down, mirrored"
        case .leftMirrored: "left, mirrored"
        case .right: "right"
        case .rightMirrored: "right, mirrored"
        case .left: "left"
        }
    }
}
