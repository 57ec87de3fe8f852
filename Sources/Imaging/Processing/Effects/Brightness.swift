extension ImageProcessors {
    /// Makes an image lighter or darker by adding the same amount to every colour channel:
    /// thumbor's `brightness(amount)` filter.
    ///
    /// `amount` is a percentage of the full scale from -100 to 100 (thumbor's range): each
    /// channel gains `amount × 255 / 100` (rounded), clamped to 0…255, so 100 makes every pixel
    /// white and -100 black. Alpha is untouched; the colour is adjusted as a person sees it
    /// (straight alpha), whatever the input's pixel format. One table lookup per byte.
    public struct Brightness: ImageProcessing, Hashable {
        /// The accepted amounts: thumbor's range.
        public static let amountRange: ClosedRange<Double> = -100...100

        /// The change, in percent of the full scale.
        public let amount: Double

        /// A change of `amount` percent of the full scale (see ``amountRange``).
        public init(amount: Double) { self.amount = amount }

        /// E.g. `com.comet.brightness?amount=40`.
        public var identifier: String { "com.comet.brightness?amount=\(identifierNumber(amount))" }

        /// Throws ``ImageProcessingError`` when ``amount`` is outside ``amountRange``;
        /// ``process(_:)`` calls it first, and a server may call it before fetching anything.
        public func validate() throws(ImageProcessingError) {
            guard Self.amountRange.contains(amount) else {
                throw ImageProcessingError(
                    processor: identifier, reason: "brightness must be from -100 to 100 (percent), got \(amount)")
            }
        }

        /// The adjusted image (the image itself for an amount of 0).
        public func process(_ image: Image) throws -> Image {
            try validate()
            guard amount != 0 else { return image }
            let delta = (amount * 255 / 100).rounded()
            let table = (0..<256).map { UInt8(min(max(Double($0) + delta, 0), 255)) }
            return PixelRows.onStraightColor(image) { PixelRows.lookUp($0, table: table) }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Brightness {
    /// Lightens (positive) or darkens (negative) by `amount` percent, -100…100 (see
    /// ``ImageProcessors/Brightness``).
    public static func brightness(_ amount: Double) -> Self { .init(amount: amount) }
}
