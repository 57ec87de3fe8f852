extension ImageProcessors {
    /// Mirrors an image: left to right (`horizontal`), top to bottom (`vertical`), or both (a
    /// half turn). thumbor asks for it with a negative width or height; imgproxy's `flip` option
    /// names the axes.
    ///
    /// Pixels are moved, not resampled; size and pixel format are kept.
    public struct Flip: ImageProcessing, Hashable {
        /// Whether columns are mirrored (the left edge becomes the right edge).
        public let horizontal: Bool
        /// Whether rows are mirrored (the top edge becomes the bottom edge).
        public let vertical: Bool

        /// Mirrors along the axes asked for.
        public init(horizontal: Bool = false, vertical: Bool = false) {
            (self.horizontal, self.vertical) = (horizontal, vertical)
        }

        /// E.g. `com.comet.flip?horizontal=true&vertical=false`.
        public var identifier: String { "com.comet.flip?horizontal=\(horizontal)&vertical=\(vertical)" }

        /// The mirrored image (the image itself when neither axis is flipped).
        public func process(_ image: Image) throws -> Image {
            let (w, h) = (image.width, image.height)
            switch (horizontal, vertical) {
            case (false, false): return image
            case (true, false): return PixelMover.move(image, width: w, height: h) { x, y in (w - 1 - x, y) }
            case (false, true): return PixelMover.move(image, width: w, height: h) { x, y in (x, h - 1 - y) }
            case (true, true): return PixelMover.move(image, width: w, height: h) { x, y in (w - 1 - x, h - 1 - y) }
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Flip {
    /// Mirrors left to right (`horizontal`) and/or top to bottom (`vertical`) (see
    /// ``ImageProcessors/Flip``).
    public static func flip(horizontal: Bool = false, vertical: Bool = false) -> Self {
        .init(horizontal: horizontal, vertical: vertical)
    }
}
