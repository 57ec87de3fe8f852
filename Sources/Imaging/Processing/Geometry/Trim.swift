extension ImageProcessors {
    /// Cuts away a uniform border: imgproxy's `trim:%threshold:%color:%equal_hor:%equal_ver`.
    ///
    /// A pixel is background when none of its four channels differs from the background colour
    /// by more than `threshold` (0…255), compared premultiplied, so every fully transparent
    /// pixel matches a transparent background whatever its stored colour. The background is
    /// `color` when given, else the image's top left pixel (as libvips' `find_trim` assumes).
    /// The result is the smallest rectangle holding every other pixel; with `equalHorizontal`
    /// the left and right cuts are both the smaller of the two (a centred subject stays centred
    /// even with a shadow on one side), likewise `equalVertical` for top and bottom. An image
    /// that is all background is returned as it is. The result is a compact copy.
    public struct Trim: ImageProcessing, Hashable {
        /// The accepted thresholds.
        public static let thresholdRange: ClosedRange<Double> = 0...255

        /// How far a channel may be from the background's and still count as background.
        public let threshold: Double
        /// The background colour (straight alpha), or `nil` for the top left pixel.
        public let color: RGBA8?
        /// Whether the left and right cuts are made equal.
        public let equalHorizontal: Bool
        /// Whether the top and bottom cuts are made equal.
        public let equalVertical: Bool

        /// Trims a border within `threshold` of `color` (default: the top left pixel).
        public init(
            threshold: Double = 10, color: RGBA8? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false
        ) {
            (self.threshold, self.color) = (threshold, color)
            (self.equalHorizontal, self.equalVertical) = (equalHorizontal, equalVertical)
        }

        /// E.g. `com.comet.trim?threshold=10&color=auto&equalHorizontal=false&equalVertical=false`
        /// (`color=%23rrggbbaa` when one is given).
        public var identifier: String {
            "com.comet.trim?threshold=\(identifierNumber(threshold))&color=\(color.map(identifierColor) ?? "auto")"
                + "&equalHorizontal=\(equalHorizontal)&equalVertical=\(equalVertical)"
        }

        /// Throws ``ImageProcessingError`` when ``threshold`` is outside ``thresholdRange``.
        public func validate() throws(ImageProcessingError) {
            guard Self.thresholdRange.contains(threshold) else {
                throw ImageProcessingError(processor: identifier, reason: "the trim threshold must be from 0 to 255")
            }
        }

        /// The trimmed image.
        public func process(_ image: Image) throws -> Image {
            guard let kept = try keptRectangle(of: image) else { return image }
            return image.cropped(x: kept.x, y: kept.y, width: kept.width, height: kept.height).compacted()
        }

        /// The rectangle of `image` that ``process(_:)`` keeps, or `nil` when it keeps all of it
        /// (nothing to trim, or all background). For a caller that trims one image by what
        /// another shows (the same image laid on a colour, say). Throws as ``validate()``.
        public func keptRectangle(of image: Image) throws -> (x: Int, y: Int, width: Int, height: Int)? {
            try validate()
            // Opaque or premultiplied: either way the stored bytes are the premultiplied colour.
            let compared = image.isOpaque ? image : AlphaConversion.premultiplied(image)
            let reference = color?.premultiplied ?? compared.pixel(x: 0, y: 0)
            guard var (left, top, right, bottom) = bounds(of: compared, background: reference) else { return nil }
            if equalHorizontal {
                let cut = min(left, image.width - 1 - right)
                (left, right) = (cut, image.width - 1 - cut)
            }
            if equalVertical {
                let cut = min(top, image.height - 1 - bottom)
                (top, bottom) = (cut, image.height - 1 - cut)
            }
            if left == 0, top == 0, right == image.width - 1, bottom == image.height - 1 { return nil }
            return (left, top, right - left + 1, bottom - top + 1)
        }

        /// The first and last columns and rows holding a pixel that is not `background`
        /// (premultiplied), or `nil` when there is none.
        private func bounds(of image: Image, background: RGBA8) -> (Int, Int, Int, Int)? {
            let limit = SIMD4<Int16>(repeating: Int16(threshold.rounded(.down)))
            let target = SIMD4<Int16>(
                Int16(background.red), Int16(background.green), Int16(background.blue), Int16(background.alpha))
            return image.withUnsafeBytes { bytes -> (Int, Int, Int, Int)? in
                let base = bytes.baseAddress!
                func isBackground(_ x: Int, _ y: Int) -> Bool {
                    let p = SIMD4<Int16>(
                        truncatingIfNeeded: base.loadUnaligned(
                            fromByteOffset: y * image.bytesPerRow + x * 4, as: SIMD4<UInt8>.self))
                    let difference = p &- target
                    let magnitude = difference.replacing(with: 0 &- difference, where: difference .< 0)
                    return !any(magnitude .> limit)
                }
                func rowIsBackground(_ y: Int) -> Bool { (0..<image.width).allSatisfy { isBackground($0, y) } }
                guard let top = (0..<image.height).first(where: { !rowIsBackground($0) }) else { return nil }
                let bottom = (top..<image.height).last(where: { !rowIsBackground($0) })!
                var left = image.width - 1, right = 0
                for y in top...bottom {
                    if let first = (0..<left).first(where: { !isBackground($0, y) }) { left = first }
                    if let last = ((right + 1)..<image.width).reversed().first(where: { !isBackground($0, y) }) {
                        right = last
                    }
                }
                return (left, top, right, bottom)
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Trim {
    /// Cuts away a border within `threshold` of `color` (default: the top left pixel) (see
    /// ``ImageProcessors/Trim``).
    public static func trim(
        threshold: Double = 10, color: RGBA8? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false
    ) -> Self {
        .init(threshold: threshold, color: color, equalHorizontal: equalHorizontal, equalVertical: equalVertical)
    }
}
