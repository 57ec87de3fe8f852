extension ImageProcessors {
    /// Raises or lowers an image's contrast around mid-grey: thumbor's `contrast(amount)` filter.
    ///
    /// `amount` is a percentage from -100 to 100 (thumbor's range). With `c = amount × 255 / 100`,
    /// each colour channel becomes `f × (v − 128) + 128`, clamped and rounded, where
    /// `f = 259 (c + 255) / (255 (259 − c))` is the usual contrast-correction factor: 0 leaves
    /// the image alone, -100 makes it flat grey (`f = 0`), 100 nearly black and white. Alpha is
    /// untouched; the colour is adjusted as a person sees it (straight alpha), whatever the
    /// input's pixel format. One table lookup per byte.
    public struct Contrast: ImageProcessing, Hashable {
        /// The accepted amounts: thumbor's range.
        public static let amountRange: ClosedRange<Double> = -100...100

        /// The change, in percent.
        public let amount: Double

        /// A change of `amount` percent (see ``amountRange``).
        public init(amount: Double) { self.amount = amount }

        /// E.g. `com.comet.contrast?amount=-40`.
        public var identifier: String { "com.comet.contrast?amount=\(identifierNumber(amount))" }

        /// The factor `f` channels are scaled by around 128.
        var factor: Double {
            let c = amount * 255 / 100
            return 259 * (c + 255) / (255 * (259 - c))
        }

        /// Throws ``ImageProcessingError`` when ``amount`` is outside ``amountRange``;
        /// ``process(_:)`` calls it first, and a server may call it before fetching anything.
        public func validate() throws(ImageProcessingError) {
            guard Self.amountRange.contains(amount) else {
                throw ImageProcessingError(
                    processor: identifier, reason: "contrast must be from -100 to 100 (percent), got \(amount)")
            }
        }

        /// The adjusted image (the image itself for an amount of 0).
        public func process(_ image: Image) throws -> Image {
            try validate()
            guard amount != 0 else { return image }
            let f = factor
            let table = (0..<256).map { UInt8(min(max(f * (Double($0) - 128) + 128, 0), 255).rounded()) }
            return PixelRows.onStraightColor(image) { PixelRows.lookUp($0, table: table) }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Contrast {
    /// Raises (positive) or lowers (negative) contrast by `amount` percent, -100…100 (see
    /// ``ImageProcessors/Contrast``).
    public static func contrast(_ amount: Double) -> Self { .init(amount: amount) }
}
