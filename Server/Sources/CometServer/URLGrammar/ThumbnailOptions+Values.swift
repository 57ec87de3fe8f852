import Comet

/// The values of the options that take more than one argument: what each part means, in the
/// URL's units (a thumbnail plan turns them into pixels).
extension ThumbnailOptions {
    /// An area of the source cut out before the resize (`c`): imgproxy's `crop`.
    public struct CropArea: Sendable, Hashable {
        /// The width: pixels from 1, a fraction of the source's below 1, 0 for all of it.
        public var width: Double
        /// The height, as ``width``.
        public var height: Double
        /// What places it, or `nil` for `g`'s gravity (offsets of at least 1 in source pixels,
        /// below 1 fractions of the source's sides).
        public var gravity: ImageProcessors.Gravity?

        /// Creates an area.
        public init(width: Double, height: Double, gravity: ImageProcessors.Gravity? = nil) {
            (self.width, self.height, self.gravity) = (width, height, gravity)
        }
    }

    /// A trim: the border within `threshold` of `color` (default: the top left pixel) is cut
    /// off, the cuts made equal on either axis when asked.
    public struct Trim: Sendable, Hashable {
        /// How far (0…255) a channel may be from the background's.
        public var threshold: Double
        /// The background colour, or `nil` for the source's top left pixel.
        public var color: RGBA8?
        /// Whether the left and right cuts are equal.
        public var equalHorizontal: Bool
        /// Whether the top and bottom cuts are equal.
        public var equalVertical: Bool

        /// Creates a trim.
        public init(threshold: Double, color: RGBA8? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false)
        {
            (self.threshold, self.color) = (threshold, color)
            (self.equalHorizontal, self.equalVertical) = (equalHorizontal, equalVertical)
        }
    }

    /// Zoom factors: the resize's width and height are multiplied by them (not offsets or
    /// padding, unlike `dpr`).
    public struct Zoom: Sendable, Hashable {
        /// Multiplies the width.
        public var x: Double
        /// Multiplies the height.
        public var y: Double

        /// Creates zoom factors.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A mirroring: which axes are flipped.
    public struct Flip: Sendable, Hashable {
        /// Whether left and right are swapped.
        public var horizontal: Bool
        /// Whether top and bottom are swapped.
        public var vertical: Bool

        /// Creates a mirroring.
        public init(horizontal: Bool, vertical: Bool) {
            self.horizontal = horizontal
            self.vertical = vertical
        }
    }

    /// Space around the result, in pixels before the device pixel ratio.
    public struct Padding: Sendable, Hashable {
        /// Above.
        public var top: Int
        /// Right.
        public var right: Int
        /// Below.
        public var bottom: Int
        /// Left.
        public var left: Int

        /// Creates a padding.
        public init(top: Int, right: Int, bottom: Int, left: Int) {
            self.top = top
            self.right = right
            self.bottom = bottom
            self.left = left
        }
    }

    /// A resize option.
    public struct Resize: Sendable, Hashable {
        /// How the image is fitted.
        public var mode: ResizeMode
        /// Target width in pixels; 0 = from the aspect ratio.
        public var width: Int
        /// Target height in pixels; 0 = from the aspect ratio.
        public var height: Int
        /// Whether the image may be enlarged.
        public var upscale: Bool

        /// Creates a resize option.
        public init(mode: ResizeMode, width: Int, height: Int, upscale: Bool = false) {
            self.mode = mode
            self.width = width
            self.height = height
            self.upscale = upscale
        }
    }

    /// A crop rectangle in source pixels.
    public struct CropRect: Sendable, Hashable {
        /// Left edge.
        public var x: Int
        /// Top edge.
        public var y: Int
        /// Width.
        public var width: Int
        /// Height.
        public var height: Int

        /// Creates a crop rectangle.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }
}
