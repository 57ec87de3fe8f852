/// The namespace of Comet's built-in processors (see ``ImageProcessing``).
///
/// Use the static factories in array literals: `[.resize(width: 256), .roundedCorners(radius: 8)]`.
/// Every processor is a small `Hashable` value; its ``ImageProcessing/identifier`` starts with
/// `com.comet.` and lists its parameters in pixels.
///
/// Colour values are processed as stored (sRGB-encoded bytes), not converted to linear light:
/// the same choice Core Graphics, Nuke and AlamofireImage make by default. Averages of very
/// different colours are therefore slightly darker than a linear-light average would be.
public enum ImageProcessors {
    /// The longest side, in pixels, that the processors which enlarge an image (``Padding``,
    /// ``Extend``) accept for their result unless told otherwise: 16384, the largest side most
    /// encoders take (WebP's limit is 16383 × 16383).
    public static let maximumResultSide = 16_384

    /// The unit a size or length is given in.
    ///
    /// Linux has no screen scale, so ``pixels`` is the default; ``points(scale:)`` multiplies by
    /// the scale you give (e.g. 2 for a "@2x" client) and rounds to whole pixels where a whole
    /// number is needed. Identifiers always record the resulting pixels, so
    /// `(128 points at scale 2)` and `(256 pixels)` are the same processor.
    public enum Unit: Sendable, Hashable {
        /// Image pixels.
        case pixels
        /// Points, `scale` pixels each.
        case points(scale: Double)

        /// `value` in pixels.
        public func pixels(_ value: Double) -> Double {
            switch self {
            case .pixels: value
            case .points(let scale): value * scale
            }
        }

        /// `value` in whole pixels for a side, never trapping: rounded, at least 1 (zero, negative
        /// and NaN lengths give 1) and at most 2^30 (+infinity and anything longer give 2^30,
        /// which no image reaches, so a fit or a resize without upscale leaves the image as it is).
        public func side(_ value: Double) -> Int {
            let scaled = pixels(value).rounded()
            guard scaled >= 1 else { return 1 }  // also NaN
            return scaled < Self.longestSide ? Int(scaled) : Int(Self.longestSide)
        }

        /// 2^30: the longest side ``side(_:)`` returns.
        static let longestSide: Double = 1_073_741_824
    }
}

/// Formats a number for an identifier: whole numbers without a fraction ("8", not "8.0"),
/// others in Swift's shortest round-trip form, so the string is stable across runs.
func identifierNumber(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
}

/// Formats a colour for an identifier: `%23rrggbbaa` (the `#` escaped, as in a URL query).
func identifierColor(_ color: RGBA8) -> String {
    let digits = Array("0123456789abcdef")
    let hex = [color.red, color.green, color.blue, color.alpha].map { byte in
        String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }.joined()
    return "%23\(hex)"
}
