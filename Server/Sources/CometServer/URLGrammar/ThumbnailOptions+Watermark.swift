import Comet

extension ThumbnailOptions {
    /// A `wm` option: how the server's watermark (``WatermarkImage``) is drawn over the result.
    public struct Watermark: Sendable, Hashable {
        /// Multiplies the overlay's own alpha, above 0 and at most 1.
        public var opacity: Double
        /// A compass point, or tiled (`re`).
        public var position: ImageProcessors.Watermark.Position
        /// Inward from the named edge (or the gap between tiles): below 1 in magnitude a
        /// fraction of the result's width, else pixels (times `dpr`).
        public var offsetX: Double
        /// As ``offsetX``, of the result's height.
        public var offsetY: Double
        /// The overlay fitted to this fraction of the result's width and height (0…1; 0 keeps
        /// its own size).
        public var scale: Double

        /// Creates a watermark option.
        public init(
            opacity: Double, position: ImageProcessors.Watermark.Position = .compass(.center), offsetX: Double = 0,
            offsetY: Double = 0, scale: Double = 0
        ) {
            (self.opacity, self.position, self.offsetX, self.offsetY, self.scale) =
                (opacity, position, offsetX, offsetY, scale)
        }
    }

    static let watermark = ThumbnailOption(
        name: "wm", longName: "watermark", syntax: "{opacity}[:{position}[:{x}[:{y}[:{scale}]]]]",
        summary: "draw the server's `--watermark` image over the result, last: `opacity` 0…1; `position` a compass "
            + "point (default `ce`) or `re` to tile it; offsets inward (tiled: the gaps), below 1 a fraction of "
            + "the result's side, else pixels times `dpr`; `scale` fits it to that fraction of the result (0: "
            + "its own size); each may be left empty or out for its default",
        example: "wm:0.5:soea:10:10:0.25",
        get: { $0.watermark }, set: { $0.watermark = $1.opacity == 0 ? nil : $1 }, reset: { $0.watermark = nil },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try parseWatermark(arguments, maximumDimension: maximumDimension)
        },
        spell: { watermark, output in
            output.appendArgument(watermark.opacity)
            output.appendArgument(watermark.position.description)
            output.appendArgument(watermark.offsetX)
            output.appendArgument(watermark.offsetY)
            output.appendArgument(watermark.scale)
        }
    )

    private static func parseWatermark(_ arguments: OptionArguments, maximumDimension: Int) throws(ServiceError)
        -> Watermark
    {
        let usage =
            "wm takes an opacity, then optionally a position (a compass point or re), x and y offsets and "
            + "a scale (each may be left empty), as in wm:0.5:soea:10:10:0.25"
        guard (1...5).contains(arguments.count) else { throw .badOptions(usage) }
        // An opacity left empty is imgproxy's default, 0: no watermark.
        guard !arguments[0].isEmpty else { return Watermark(opacity: 0) }
        guard let opacity = OptionNumber.decimal(arguments[0]) else { throw .badOptions(usage) }
        guard opacity != 0 else { return Watermark(opacity: 0) }
        var watermark = Watermark(opacity: opacity)
        if !arguments.isAbsentOrEmpty(1) {
            if arguments[1] == "re" {
                watermark.position = .tiled
            } else if let point = ImageProcessors.Gravity.Compass(rawValue: arguments[1]) {
                watermark.position = .compass(point)
            } else {
                throw .badOptions(usage)
            }
        }
        let limit = Double(maximumDimension)
        func offset(_ index: Int) throws(ServiceError) -> Double {
            guard !arguments.isAbsentOrEmpty(index) else { return 0 }
            guard let offset = OptionNumber.decimal(arguments[index]), abs(offset) <= limit else {
                throw .badOptions("wm's offsets are numbers of at most \(maximumDimension) pixels")
            }
            return offset
        }
        watermark.offsetX = try offset(2)
        watermark.offsetY = try offset(3)
        if !arguments.isAbsentOrEmpty(4) {
            guard let scale = OptionNumber.decimal(arguments[4]) else { throw .badOptions(usage) }
            watermark.scale = scale
        }
        let check = ImageProcessors.Watermark(
            overlay: validationOverlay, overlayID: "-", opacity: watermark.opacity, position: watermark.position,
            offsetX: watermark.offsetX, offsetY: watermark.offsetY, scale: watermark.scale)
        try validating("wm") { () throws(ImageProcessingError) in try check.validate() }
        return watermark
    }

    /// Stands in for the server's overlay when a `wm` value is checked (the limits do not
    /// depend on it).
    private static let validationOverlay = Image(width: 1, height: 1, color: RGBA8(red: 0, green: 0, blue: 0))
}
