extension ImageProcessors {
    /// Draws an overlay image (a logo, a mark) over the image: imgproxy's
    /// `watermark:%opacity:%position:%x_offset:%y_offset:%scale`.
    ///
    /// - `opacity` (0…1) multiplies the overlay's own alpha.
    /// - `position` is a compass point (the overlay placed as ``Gravity/compass(_:offsetX:offsetY:)``
    ///   places a region: against that edge, offsets inward, kept inside where it fits) or
    ///   ``Position/tiled`` (imgproxy's `re`): copies from the top left corner across the whole
    ///   image, `offsetX` and `offsetY` pixels apart.
    /// - `scale`, when above 0, resizes the overlay (Lanczos3, keeping its aspect ratio) to fit
    ///   `scale` × the image's width and height; 0 keeps its own size.
    ///
    /// Compositing is "over" with premultiplied alpha on the stored sRGB values:
    /// `out = overlay × opacity + image × (1 − overlayAlpha × opacity)`. The result has the
    /// image's size and pixel format; it is opaque when the image is.
    ///
    /// The overlay is an ``Image`` the caller keeps (decoded once, e.g. at startup); `overlayID`
    /// names it in the identifier, so it must change whenever the overlay's pixels do.
    /// Limits: `opacity` and `scale` in 0…1, offsets from -``ImageProcessors/maximumResultSide``
    /// to ``ImageProcessors/maximumResultSide`` (0 or more when tiled); other values make
    /// ``validate()`` and ``process(_:)`` throw. The cost is one pass over the pixels the
    /// overlay covers (plus the overlay's resize when scaled).
    public struct Watermark: ImageProcessing, Hashable {
        /// Where the overlay goes.
        public enum Position: Sendable, Hashable, CustomStringConvertible {
            /// At a compass point.
            case compass(Gravity.Compass)
            /// Repeated over the whole image from the top left corner.
            case tiled

            /// imgproxy's spelling: the compass point's short form, or `re`.
            public var description: String {
                switch self {
                case .compass(let point): point.rawValue
                case .tiled: "re"
                }
            }
        }

        /// The overlay, as given.
        public let overlay: Image
        /// The name of the overlay in identifiers.
        public let overlayID: String
        /// The overlay's opacity, 0…1.
        public let opacity: Double
        /// Where the overlay goes.
        public let position: Position
        /// The offset from the named edge (or the horizontal gap between tiles), in pixels.
        public let offsetX: Double
        /// The offset from the named edge (or the vertical gap between tiles), in pixels.
        public let offsetY: Double
        /// The overlay's size as a fraction of the image's (0: its own size).
        public let scale: Double

        /// `overlay` (named `overlayID`) drawn at `position` with `opacity`, offsets and `scale`.
        public init(
            overlay: Image, overlayID: String, opacity: Double = 1, position: Position = .compass(.center),
            offsetX: Double = 0, offsetY: Double = 0, scale: Double = 0
        ) {
            (self.overlay, self.overlayID, self.opacity, self.position) = (overlay, overlayID, opacity, position)
            (self.offsetX, self.offsetY, self.scale) = (offsetX, offsetY, scale)
        }

        /// E.g. `com.comet.watermark?overlay=logo-v2&opacity=0.5&position=soea&offsetX=10&offsetY=10&scale=0.25`.
        public var identifier: String {
            "com.comet.watermark?overlay=\(overlayID)&opacity=\(identifierNumber(opacity))&position=\(position)"
                + "&offsetX=\(identifierNumber(offsetX))&offsetY=\(identifierNumber(offsetY))"
                + "&scale=\(identifierNumber(scale))"
        }

        /// Equal when the identifiers are (the overlay is compared by ``overlayID``).
        public static func == (a: Watermark, b: Watermark) -> Bool { a.identifier == b.identifier }

        /// Hashes the identifier.
        public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

        /// Throws ``ImageProcessingError`` when a parameter is outside its limits.
        public func validate() throws(ImageProcessingError) {
            let side = Double(ImageProcessors.maximumResultSide)
            let lowest = position == .tiled ? 0 : -side
            guard (0...1).contains(opacity) else {
                throw ImageProcessingError(processor: identifier, reason: "the watermark's opacity must be from 0 to 1")
            }
            guard (0...1).contains(scale) else {
                throw ImageProcessingError(processor: identifier, reason: "the watermark's scale must be from 0 to 1")
            }
            guard (lowest...side).contains(offsetX), (lowest...side).contains(offsetY) else {
                throw ImageProcessingError(
                    processor: identifier,
                    reason:
                        "the watermark's offsets must be from \(identifierNumber(lowest)) to \(identifierNumber(side)) pixels"
                )
            }
        }

        /// The image with the overlay drawn on it (the image itself at opacity 0).
        public func process(_ image: Image) throws -> Image {
            try validate()
            guard opacity > 0 else { return image }
            let mark = try preparedOverlay(for: image)
            var origin = (x: 0, y: 0), step: (x: Int, y: Int)? = nil
            switch position {
            case .compass(let point):
                let corner = Gravity.compass(point, offsetX: offsetX, offsetY: offsetY).origin(
                    width: Double(mark.width), height: Double(mark.height),
                    containerWidth: Double(image.width), containerHeight: Double(image.height))
                origin = (Int(corner.x.rounded(.down)), Int(corner.y.rounded(.down)))
            case .tiled:
                step = (mark.width + Int(offsetX.rounded()), mark.height + Int(offsetY.rounded()))
            }
            let base = image.isOpaque ? image : AlphaConversion.premultiplied(image)
            let output = OverlayBlender.blend(mark, over: base, at: origin, step: step, opacity: opacity)
            return image.pixelFormat == .rgba8 && !image.isOpaque ? AlphaConversion.unpremultiplied(output) : output
        }

        /// The overlay, scaled as asked and premultiplied.
        private func preparedOverlay(for image: Image) throws -> Image {
            var mark = overlay
            if scale > 0 {
                let target = Size(
                    width: max(1, Int((Double(image.width) * scale).rounded())),
                    height: max(1, Int((Double(image.height) * scale).rounded())))
                mark = try Resize(size: target, contentMode: .aspectFit, upscale: true).process(mark)
            }
            return mark.isOpaque || mark.pixelFormat == .rgba8Premultiplied ? mark : AlphaConversion.premultiplied(mark)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Watermark {
    /// Draws `overlay` (named `overlayID` in cache keys) at `position` with `opacity`, offsets
    /// and `scale` (see ``ImageProcessors/Watermark``).
    public static func watermark(
        _ overlay: Image, id overlayID: String, opacity: Double = 1,
        position: ImageProcessors.Watermark.Position = .compass(.center), offsetX: Double = 0, offsetY: Double = 0,
        scale: Double = 0
    ) -> Self {
        .init(
            overlay: overlay, overlayID: overlayID, opacity: opacity, position: position, offsetX: offsetX,
            offsetY: offsetY, scale: scale)
    }
}
