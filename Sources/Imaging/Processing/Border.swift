extension ImageProcessors {
    /// A line drawn just inside the edge of a rounded or circular image.
    public struct Border: Sendable, Hashable {
        /// The line's colour (straight alpha).
        public var color: RGBA8
        /// The line's width in pixels.
        public var width: Double

        /// A border `width` wide (in `unit`) of `color`.
        public init(color: RGBA8, width: Double = 1, unit: Unit = .pixels) {
            self.color = color
            self.width = max(0, unit.pixels(width))
        }

        /// `#rrggbbaa,<width>`, for identifiers.
        var identifierValue: String { "\(identifierColor(color)),\(identifierNumber(width))" }
    }
}
