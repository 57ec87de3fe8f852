extension ImageProcessors {
    /// Places an image on a larger canvas of a background colour, where gravity says: imgproxy's
    /// `extend` (to the requested size) and `extend_aspect_ratio` (to the requested shape).
    ///
    /// - ``init(width:height:gravity:background:maximumSide:)``: each side shorter than the
    ///   target grows to it; a side already as long stays as it is (nothing is cropped).
    /// - ``init(aspectRatioWidth:aspectRatioHeight:gravity:background:maximumSide:)``: the one
    ///   side that is short for the ratio grows (rounded to the nearest pixel).
    ///
    /// The image is placed by a compass point or focus point (``Gravity/smart`` is refused: there
    /// is nothing to crop), whole pixels, rounded down; offsets are in the result's pixels. Its
    /// pixels are copied unchanged, the rest is `background` (default transparent).
    ///
    /// Limits: the result's sides may not exceed ``maximumSide``; otherwise ``process(_:)`` throws.
    public struct Extend: ImageProcessing, Hashable {
        enum Target: Hashable {
            case size(width: Int, height: Int)
            case aspectRatio(width: Double, height: Double)
        }

        let target: Target
        /// Where the image lands on the canvas.
        public let gravity: Gravity
        /// The colour of the added space (straight alpha).
        public let background: RGBA8
        /// The longest side the result may have (default ``ImageProcessors/maximumResultSide``).
        /// Not part of the identity: it decides whether a result is made, not what it is.
        public let maximumSide: Int

        /// Extends to at least `width` × `height` pixels.
        public init(
            width: Int, height: Int, gravity: Gravity = .center, background: RGBA8 = .clear,
            maximumSide: Int = ImageProcessors.maximumResultSide
        ) {
            target = .size(width: width, height: height)
            (self.gravity, self.background, self.maximumSide) = (gravity, background, maximumSide)
        }

        /// Extends the short side to the aspect ratio `aspectRatioWidth` : `aspectRatioHeight`.
        public init(
            aspectRatioWidth: Double, aspectRatioHeight: Double, gravity: Gravity = .center,
            background: RGBA8 = .clear, maximumSide: Int = ImageProcessors.maximumResultSide
        ) {
            target = .aspectRatio(width: aspectRatioWidth, height: aspectRatioHeight)
            (self.gravity, self.background, self.maximumSide) = (gravity, background, maximumSide)
        }

        /// E.g. `com.comet.extend?width=300&height=200&gravity=ce&background=%23ffffffff`, or
        /// `com.comet.extend?aspectRatio=16:9&gravity=no&background=%2300000000`.
        public var identifier: String {
            let size =
                switch target {
                case .size(let w, let h): "width=\(w)&height=\(h)"
                case .aspectRatio(let w, let h): "aspectRatio=\(identifierNumber(w)):\(identifierNumber(h))"
                }
            return "com.comet.extend?\(size)&gravity=\(gravity)&background=\(identifierColor(background))"
        }

        /// Equal when the target, gravity and background are (``maximumSide`` is not compared).
        public static func == (a: Extend, b: Extend) -> Bool {
            (a.target, a.gravity, a.background) == (b.target, b.gravity, b.background)
        }

        /// Hashes what `==` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(target); hasher.combine(gravity); hasher.combine(background)
        }

        /// Throws ``ImageProcessingError`` for smart or invalid gravity, a target side over
        /// ``maximumSide`` or a ratio that is not positive; ``process(_:)`` calls it first, and a
        /// server may call it before fetching anything.
        public func validate() throws(ImageProcessingError) {
            if gravity == .smart {
                throw ImageProcessingError(
                    processor: identifier, reason: "extending takes a compass or focus-point gravity")
            }
            if let reason = gravity.invalidityReason {
                throw ImageProcessingError(processor: identifier, reason: reason)
            }
            switch target {
            case .size(let w, let h) where w > maximumSide || h > maximumSide:
                throw ImageProcessingError(
                    processor: identifier, reason: "the extended image may be at most \(maximumSide) pixels a side")
            case .aspectRatio(let w, let h) where !(w > 0 && h > 0 && w.isFinite && h.isFinite):
                throw ImageProcessingError(processor: identifier, reason: "an aspect ratio's terms must be positive")
            default: break
            }
        }

        /// The size of the canvas for a `width` × `height` image.
        func canvasSize(width: Int, height: Int) -> (width: Int, height: Int) {
            switch target {
            case .size(let w, let h): return (max(w, width), max(h, height))
            case .aspectRatio(let rw, let rh):
                let ratio = rw / rh
                if Double(width) / Double(height) < ratio {
                    return (max(width, Int((Double(height) * ratio).rounded())), height)
                }
                return (width, max(height, Int((Double(width) / ratio).rounded())))
            }
        }

        /// The extended image (the image itself when no side grows).
        public func process(_ image: Image) throws -> Image {
            try validate()
            let canvas = canvasSize(width: image.width, height: image.height)
            if canvas == (image.width, image.height) { return image }
            guard canvas.width <= maximumSide, canvas.height <= maximumSide else {
                throw ImageProcessingError(
                    processor: identifier,
                    reason: "the extended image would be \(canvas.width)×\(canvas.height), over the limit of "
                        + "\(maximumSide) a side")
            }
            let corner = gravity.origin(
                width: Double(image.width), height: Double(image.height),
                containerWidth: Double(canvas.width), containerHeight: Double(canvas.height))
            return CanvasPlacement.place(
                image, width: canvas.width, height: canvas.height,
                x: Int(corner.x.rounded(.down)), y: Int(corner.y.rounded(.down)), background: background)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Extend {
    /// Extends to at least `width` × `height` pixels of `background`, the image placed by
    /// `gravity` (see ``ImageProcessors/Extend``).
    public static func extend(
        width: Int, height: Int, gravity: ImageProcessors.Gravity = .center, background: RGBA8 = .clear,
        maximumSide: Int = ImageProcessors.maximumResultSide
    ) -> Self {
        .init(width: width, height: height, gravity: gravity, background: background, maximumSide: maximumSide)
    }

    /// Extends the short side to the aspect ratio `width` : `height` (see ``ImageProcessors/Extend``).
    public static func extend(
        aspectRatioWidth width: Double, height: Double, gravity: ImageProcessors.Gravity = .center,
        background: RGBA8 = .clear, maximumSide: Int = ImageProcessors.maximumResultSide
    ) -> Self {
        .init(
            aspectRatioWidth: width, aspectRatioHeight: height, gravity: gravity, background: background,
            maximumSide: maximumSide)
    }
}
