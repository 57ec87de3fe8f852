extension ImageProcessors {
    /// Adds space around an image, filled with a background colour: imgproxy's
    /// `padding:%top:%right:%bottom:%left`.
    ///
    /// The result is `left + width + right` × `top + height + bottom` pixels, the image copied
    /// unchanged at (`left`, `top`). The background (default transparent) is stored in the
    /// image's pixel format; the result is opaque when the image and the background are.
    ///
    /// Limits: every side is from 0 to ``ImageProcessors/maximumResultSide`` pixels, and the
    /// result's sides may not exceed ``maximumSide``; otherwise ``validate()`` or
    /// ``process(_:)`` throws.
    public struct Padding: ImageProcessing, Hashable {
        /// Pixels above the image.
        public let top: Int
        /// Pixels right of the image.
        public let right: Int
        /// Pixels below the image.
        public let bottom: Int
        /// Pixels left of the image.
        public let left: Int
        /// The colour of the added space (straight alpha).
        public let background: RGBA8
        /// The longest side the result may have (default ``ImageProcessors/maximumResultSide``).
        /// Not part of the identity: it decides whether a result is made, not what it is.
        public let maximumSide: Int

        /// Padding of the given sides (in `unit`, rounded to whole pixels) in `background`, for
        /// results of at most `maximumSide` pixels a side.
        public init(
            top: Double, right: Double, bottom: Double, left: Double, background: RGBA8 = .clear,
            unit: Unit = .pixels, maximumSide: Int = ImageProcessors.maximumResultSide
        ) {
            func pixels(_ value: Double) -> Int {
                let scaled = unit.pixels(value).rounded()
                return scaled.isFinite ? Int(max(min(scaled, 1e9), -1e9)) : -1
            }
            (self.top, self.right, self.bottom, self.left) = (pixels(top), pixels(right), pixels(bottom), pixels(left))
            self.background = background
            self.maximumSide = maximumSide
        }

        /// `all` pixels (in `unit`) of `background` on every side.
        public init(
            _ all: Double, background: RGBA8 = .clear, unit: Unit = .pixels,
            maximumSide: Int = ImageProcessors.maximumResultSide
        ) {
            self.init(
                top: all, right: all, bottom: all, left: all, background: background, unit: unit,
                maximumSide: maximumSide)
        }

        /// E.g. `com.comet.padding?top=10&right=5&bottom=10&left=5&background=%23ffffffff`.
        public var identifier: String {
            "com.comet.padding?top=\(top)&right=\(right)&bottom=\(bottom)&left=\(left)"
                + "&background=\(identifierColor(background))"
        }

        /// Equal when the padding and background are (``maximumSide`` is not compared).
        public static func == (a: Padding, b: Padding) -> Bool {
            (a.top, a.right, a.bottom, a.left, a.background) == (b.top, b.right, b.bottom, b.left, b.background)
        }

        /// Hashes what `==` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(top); hasher.combine(right); hasher.combine(bottom); hasher.combine(left)
            hasher.combine(background)
        }

        /// Throws ``ImageProcessingError`` when a side is negative or longer than ``maximumSide``;
        /// ``process(_:)`` calls it first, and a server may call it before fetching anything.
        public func validate() throws(ImageProcessingError) {
            for side in [top, right, bottom, left] where side < 0 || side > maximumSide {
                throw ImageProcessingError(
                    processor: identifier, reason: "padding must be from 0 to \(maximumSide) pixels a side")
            }
        }

        /// The padded image (the image itself when every side is 0).
        public func process(_ image: Image) throws -> Image {
            try validate()
            if top == 0, right == 0, bottom == 0, left == 0 { return image }
            let (width, height) = (left + image.width + right, top + image.height + bottom)
            guard width <= maximumSide, height <= maximumSide else {
                throw ImageProcessingError(
                    processor: identifier,
                    reason: "the padded image would be \(width)×\(height), over the limit of \(maximumSide) a side")
            }
            return CanvasPlacement.place(image, width: width, height: height, x: left, y: top, background: background)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Padding {
    /// Adds `top`, `right`, `bottom` and `left` pixels of `background` around the image (see
    /// ``ImageProcessors/Padding``).
    public static func padding(
        top: Double, right: Double, bottom: Double, left: Double, background: RGBA8 = .clear,
        maximumSide: Int = ImageProcessors.maximumResultSide
    ) -> Self {
        .init(top: top, right: right, bottom: bottom, left: left, background: background, maximumSide: maximumSide)
    }

    /// Adds `all` pixels of `background` on every side (see ``ImageProcessors/Padding``).
    public static func padding(
        _ all: Double, background: RGBA8 = .clear, maximumSide: Int = ImageProcessors.maximumResultSide
    ) -> Self {
        .init(top: all, right: all, bottom: all, left: all, background: background, maximumSide: maximumSide)
    }
}
