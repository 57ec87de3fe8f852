import Comet

/// The processing options of one service URL: the `{options}` segment, parsed.
///
/// Grammar (the segment is a comma-separated list; each option is `name:arg:arg…`; a lone `-`
/// means no options, the source re-encoded at its own size):
///
/// | Option | Meaning |
/// | --- | --- |
/// | `rs:{fit\|fill\|force}:{w}:{h}[:{up}]` | resize into `w`×`h` pixels; `0` for one side means "follow the aspect ratio" (fit only); `up` = `1` allows enlarging (default `0`) |
/// | `cr:{x}:{y}:{w}:{h}` | crop this rectangle of the source (in source pixels) before resizing |
/// | `q:{1…100}` | encoder quality (JPEG, WebP, AVIF; 100 makes WebP lossless) |
/// | `f:{jpeg\|jpg\|png\|webp\|avif}` | output format; without it the format comes from the URL's extension, else from `Accept` |
/// | `bg:{RRGGBB}` | the colour transparent pixels are laid on when the format has no alpha (JPEG); default white |
///
/// Long names are accepted too: `resize`, `crop`, `quality`, `format`, `background`. Each option may appear
/// once. Thread-safe (a value).
public struct ThumbnailOptions: Sendable, Hashable {
    /// The resize, when asked for.
    public var resize: Resize?
    /// The crop applied before the resize, when asked for.
    public var crop: Crop?
    /// The encoder quality (1...100), or `nil` for the format's default.
    public var quality: Int?
    /// The output format, or `nil` to negotiate it.
    public var format: OutputFormat?
    /// The colour a transparent result is laid on for a format without alpha (JPEG), or `nil`
    /// for white.
    public var background: RGBA8?

    /// A resize option.
    public struct Resize: Sendable, Hashable {
        /// How the image is fitted.
        public var mode: ResizeMode
        /// Target width in pixels; 0 = from the aspect ratio.
        public var width: Int
        /// Target height in pixels; 0 = from the aspect ratio.
        public var height: Int
        /// Whether the image may be enlarged.
        public var upscale: Bool

        /// Creates a resize option.
        public init(mode: ResizeMode, width: Int, height: Int, upscale: Bool = false) {
            self.mode = mode
            self.width = width
            self.height = height
            self.upscale = upscale
        }
    }

    /// A crop rectangle in source pixels.
    public struct Crop: Sendable, Hashable {
        /// Left edge.
        public var x: Int
        /// Top edge.
        public var y: Int
        /// Width.
        public var width: Int
        /// Height.
        public var height: Int

        /// Creates a crop option.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// Creates options; by default none (the source at its own size, format negotiated).
    public init(resize: Resize? = nil, crop: Crop? = nil, quality: Int? = nil, format: OutputFormat? = nil) {
        self.resize = resize
        self.crop = crop
        self.quality = quality
        self.format = format
    }

    /// The options in their canonical spelling (short names, fixed order), e.g.
    /// `rs:fill:256:256,q:80,f:webp`; `-` for none. Equal options always spell the same, so
    /// it is the options' part of cache keys and ETags.
    public var canonical: String {
        var parts: [String] = []
        if let crop { parts.append("cr:\(crop.x):\(crop.y):\(crop.width):\(crop.height)") }
        if let resize { parts.append("rs:\(resize.mode.rawValue):\(resize.width):\(resize.height)\(resize.upscale ? ":1" : "")") }
        if let quality { parts.append("q:\(quality)") }
        if let format { parts.append("f:\(format.rawValue)") }
        if let background { parts.append("bg:" + [background.red, background.green, background.blue].map(Self.hex).joined()) }
        return parts.isEmpty ? "-" : parts.joined(separator: ",")
    }

    /// Parses an `{options}` segment, checking each value against `maximumDimension` (the
    /// largest output width or height allowed). Throws ``ServiceError`` (400) naming the first
    /// problem.
    public static func parse(_ segment: String, maximumDimension: Int) throws(ServiceError) -> ThumbnailOptions {
        var options = ThumbnailOptions()
        guard segment != "-" else { return options }
        var seen = Set<String>()
        for item in segment.split(separator: ",", omittingEmptySubsequences: false) {
            let fields = item.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard let name = fields.first, !name.isEmpty else { throw .badOptions("an empty option in \"\(segment)\"") }
            let arguments = Array(fields.dropFirst())
            let canonicalName = Self.shortNames[name] ?? name
            guard seen.insert(canonicalName).inserted else { throw .badOptions("\"\(name)\" is given twice") }
            switch canonicalName {
            case "rs": options.resize = try parseResize(arguments, maximumDimension: maximumDimension)
            case "cr": options.crop = try parseCrop(arguments)
            case "q":
                guard arguments.count == 1, let quality = Int(arguments[0]), (1...100).contains(quality) else {
                    throw .badOptions("q takes one quality from 1 to 100, as in q:80")
                }
                options.quality = quality
            case "f":
                guard arguments.count == 1, let format = OutputFormat(name: arguments[0]) else {
                    throw .badOptions("f takes one of jpeg, png, webp, avif, as in f:webp")
                }
                options.format = format
            case "bg":
                guard arguments.count == 1, let color = Self.parseColor(arguments[0]) else {
                    throw .badOptions("bg takes one RRGGBB hex colour, as in bg:ffffff")
                }
                options.background = color
            default:
                throw .badOptions("unknown option \"\(name)\" (known: rs, cr, q, f, bg)")
            }
        }
        return options
    }

    private static let shortNames = ["resize": "rs", "crop": "cr", "quality": "q", "format": "f", "background": "bg"]

    private static func parseColor(_ text: String) -> RGBA8? {
        guard text.utf8.count == 6, text.allSatisfy(\.isHexDigit), let value = UInt32(text, radix: 16) else { return nil }
        return RGBA8(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private static func parseResize(_ arguments: [String], maximumDimension: Int) throws(ServiceError) -> Resize {
        let usage = "rs takes a mode (fit, fill, force), a width and a height, as in rs:fill:256:256"
        guard arguments.count == 3 || arguments.count == 4, let mode = ResizeMode(rawValue: arguments[0]),
              let width = Int(arguments[1]), let height = Int(arguments[2]), width >= 0, height >= 0 else {
            throw .badOptions(usage)
        }
        var upscale = false
        if arguments.count == 4 {
            guard arguments[3] == "0" || arguments[3] == "1" else { throw .badOptions("rs's fourth value (upscale) is 0 or 1") }
            upscale = arguments[3] == "1"
        }
        guard width > 0 || height > 0 else { throw .badOptions("rs needs a width or a height above 0") }
        guard mode == .fit || (width > 0 && height > 0) else {
            throw .badOptions("rs:\(mode.rawValue) needs both a width and a height (0 is for rs:fit)")
        }
        guard width <= maximumDimension, height <= maximumDimension else {
            throw .badOptions("the largest output side allowed is \(maximumDimension) pixels")
        }
        return Resize(mode: mode, width: width, height: height, upscale: upscale)
    }

    private static func parseCrop(_ arguments: [String]) throws(ServiceError) -> Crop {
        let values = arguments.compactMap { Int($0) }
        guard values.count == 4, arguments.count == 4, values[0] >= 0, values[1] >= 0, values[2] > 0, values[3] > 0 else {
            throw .badOptions("cr takes x, y, width and height in source pixels, as in cr:0:0:800:600")
        }
        return Crop(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}
