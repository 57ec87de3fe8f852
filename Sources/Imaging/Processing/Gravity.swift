extension ImageProcessors {
    /// Where a region is placed when an image is cut down (``Crop``, ``Resize`` filling with
    /// `crop`) or where an image is placed when it is extended (``Extend``).
    ///
    /// The names and meanings are imgproxy's `gravity` option:
    /// - ``compass(_:offsetX:offsetY:)``: against an edge or corner, or centred. Offsets are
    ///   measured *inward* from the edge the compass point names (`east` with `offsetX: 10` keeps
    ///   10 pixels between the region and the right edge); along an axis the point centres, the
    ///   offset moves the region right or down. Offsets are in the pixels of the image the
    ///   processor places the region in (see each processor).
    /// - ``focusPoint(x:y:)``: the region is centred on the point at fractions `x`, `y` of the
    ///   width and height (0 is left/top, 1 right/bottom).
    /// - ``smart``: the region with the most "interesting" content (edges, saturated colour,
    ///   skin tones) over a small copy of the image: Comet's own content-aware crop, described
    ///   and measured in the Processing guide. It needs the image, so ``Extend`` refuses it.
    ///
    /// Wherever it is put, a region is then moved the least distance that keeps it inside the
    /// image (when it fits). Positions are fractional; a processor that copies whole pixels
    /// rounds them down.
    public enum Gravity: Sendable, Hashable, CustomStringConvertible {
        /// The compass points, named by imgproxy's short forms (`rawValue`).
        public enum Compass: String, Sendable, Hashable, CaseIterable {
            /// Centred on both axes.
            case center = "ce"
            /// Against the top edge, centred horizontally.
            case north = "no"
            /// Against the bottom edge, centred horizontally.
            case south = "so"
            /// Against the right edge, centred vertically.
            case east = "ea"
            /// Against the left edge, centred vertically.
            case west = "we"
            /// The top right corner.
            case northEast = "noea"
            /// The top left corner.
            case northWest = "nowe"
            /// The bottom right corner.
            case southEast = "soea"
            /// The bottom left corner.
            case southWest = "sowe"
        }

        /// A compass point, moved by `offsetX`, `offsetY` pixels (see ``Gravity``).
        case compass(Compass, offsetX: Double = 0, offsetY: Double = 0)
        /// Centred on the point at fractions `x`, `y` (each 0…1) of the width and height.
        case focusPoint(x: Double, y: Double)
        /// The region of the image's content with the most detail, saturated colour and skin tones.
        case smart

        /// Centred, without offsets: the default everywhere.
        public static var center: Gravity { .compass(.center) }

        /// imgproxy's spelling, used in identifiers: `ce`, `soea:10:5`, `fp:0.25:0.5`, `sm`
        /// (offsets are omitted when both are 0).
        public var description: String {
            switch self {
            case .compass(let point, let x, let y):
                x == 0 && y == 0 ? point.rawValue : "\(point.rawValue):\(identifierNumber(x)):\(identifierNumber(y))"
            case .focusPoint(let x, let y): "fp:\(identifierNumber(x)):\(identifierNumber(y))"
            case .smart: "sm"
            }
        }

        /// The same gravity with its offsets converted from `unit` to pixels.
        func inPixels(_ unit: Unit) -> Gravity {
            guard case .compass(let point, let x, let y) = self, unit != .pixels else { return self }
            return .compass(point, offsetX: unit.pixels(x), offsetY: unit.pixels(y))
        }

        /// Why this gravity cannot be used, or `nil`: a focus point outside 0…1, or an offset
        /// that is not finite.
        var invalidityReason: String? {
            switch self {
            case .compass(_, let x, let y):
                x.isFinite && y.isFinite ? nil : "the gravity's offsets must be finite numbers"
            case .focusPoint(let x, let y):
                (0...1).contains(x) && (0...1).contains(y)
                    ? nil : "a focus point's coordinates are fractions from 0 to 1"
            case .smart: nil
            }
        }

        /// The top left corner of a `width` × `height` region placed in a `containerWidth` ×
        /// `containerHeight` area by a compass point or focus point (``smart`` is placed by
        /// `SmartCrop`, and here centres). `offsetScale` converts offsets to the container's
        /// pixels. The result keeps the region inside the container on each axis where it fits,
        /// and the container inside the region where it does not.
        func origin(
            width: Double, height: Double, containerWidth: Double, containerHeight: Double, offsetScale: Double = 1
        ) -> (x: Double, y: Double) {
            let (freeX, freeY) = (containerWidth - width, containerHeight - height)
            var x = freeX / 2, y = freeY / 2
            switch self {
            case .compass(let point, let offsetX, let offsetY):
                let (dx, dy) = (offsetX * offsetScale, offsetY * offsetScale)
                switch point {
                case .west, .northWest, .southWest: x = dx
                case .east, .northEast, .southEast: x = freeX - dx
                case .center, .north, .south: x += dx
                }
                switch point {
                case .north, .northWest, .northEast: y = dy
                case .south, .southWest, .southEast: y = freeY - dy
                case .center, .west, .east: y += dy
                }
            case .focusPoint(let fx, let fy):
                x = fx * containerWidth - width / 2
                y = fy * containerHeight - height / 2
            case .smart:
                break
            }
            return (Self.clamp(x, free: freeX), Self.clamp(y, free: freeY))
        }

        /// `value` kept between 0 and `free` (either order).
        private static func clamp(_ value: Double, free: Double) -> Double {
            min(max(value, min(0, free)), max(0, free))
        }
    }
}
