import Comet

extension ThumbnailOptions {
    /// Every option of the `{options}` segment, in canonical order: the order of the canonical
    /// spelling (the delivery options last: they change the key, the checks or the headers, not
    /// the pixels). The order the options' work runs in is `ThumbnailPlan.steps`. `s`, `w`,
    /// `h` and `rt` set parts of `rs` and are spelled inside it.
    public static let table: [ThumbnailOption] = [
        autoRotate, trim, rotate, flip, cropRect, gravity, cropArea, pixelRatio, zoom, enlarge, minimumWidth,
        minimumHeight,
        resize,
        size,
        width, height, resizingType, extend, extendAspectRatio, blur,
        sharpen, pixelate, grayscale,
        brightness,
        contrast,
        padding, watermark, quality, formatQuality, maximumBytes, format, background, stripColorProfile, stripMetadata,
        keepCopyright, skipProcessing, raw, enforceThumbnail, cacheBuster,
        expires, filename,
        returnAttachment, maximumSourceResolution, maximumSourceFileSize, maximumAnimationFrames,
        maximumAnimationFrameResolution, maximumResultDimension,
    ]

    static let cropRect = ThumbnailOption(
        name: "cr", longName: "crop_rect", syntax: "{x}:{y}:{w}:{h}",
        summary: "cut this rectangle (source pixels) out before resizing (not imgproxy's: its `crop` is `c`)",
        example: "cr:0:0:800:600",
        get: { $0.cropRect }, set: { $0.cropRect = $1 }, reset: { $0.cropRect = nil },
        parse: { arguments, _ throws(ServiceError) in
            guard arguments.count == 4, let x = Int(arguments[0]), let y = Int(arguments[1]),
                let width = Int(arguments[2]), let height = Int(arguments[3]), x >= 0, y >= 0, width > 0, height > 0
            else {
                throw .badOptions("cr takes x, y, width and height in source pixels, as in cr:0:0:800:600")
            }
            return CropRect(x: x, y: y, width: width, height: height)
        },
        spell: { crop, output in
            for value in [crop.x, crop.y, crop.width, crop.height] { output.appendArgument(value) }
        }
    )

    static let quality = ThumbnailOption(
        name: "q", longName: "quality", syntax: "{1…100}",
        summary: "quality for JPEG (default 85), WebP (80; 100 is lossless) and AVIF (60)",
        example: "q:80",
        get: { $0.quality }, set: { $0.quality = $1 }, reset: { $0.quality = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "q takes one quality from 1 to 100, as in q:80") { text in
                Int(text).flatMap { (1...100).contains($0) ? $0 : nil }
            }
        },
        spell: { quality, output in output.appendArgument(quality) }
    )

    static let format = ThumbnailOption(
        name: "f", longName: "format", aliases: ["ext"], syntax: "{jpeg|png|webp|avif|gif}",
        summary: "output format (or put it as the extension: `….webp`, which wins over `f`, as in imgproxy); WebP and "
            + "GIF keep an animated source's "
            + "frames. Without it: AVIF or WebP when `Accept` names them, else the source's format if JPEG, PNG or GIF "
            + "(imgproxy's default preferred formats), else JPEG, or PNG with transparency (GIF for an animation)",
        example: "f:webp",
        get: { $0.format }, set: { $0.format = $1 }, reset: { $0.format = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(
                arguments, usage: "f takes one of jpeg, png, webp, avif, gif, as in f:webp", OutputFormat.init(name:))
        },
        spell: { format, output in output.appendArgument(format.rawValue) }
    )

    static let background = ThumbnailOption(
        name: "bg", longName: "background", syntax: "{RRGGBB|RGB} or {R}:{G}:{B}",
        summary: "as imgproxy: the colour a transparent result is laid on, in every format (without it: kept "
            + "transparent, white in JPEG), and that `pd`, `ex` and `exar` fill: hex (`RGB` is short for `RRGGBB`) or "
            + "three channels from 0 to 255; `bg:` resets it",
        example: "bg:0080ff",
        get: { $0.background }, set: { $0.background = $1 }, reset: { $0.background = nil },
        parse: { arguments, _ throws(ServiceError) in try parseBackground(arguments) },
        spell: { color, output in
            output.append(UInt8(ascii: ":"))
            for channel in [color.red, color.green, color.blue] { ASCII.appendLowerHex(channel, to: &output) }
        }
    )

    static let stripColorProfile = ThumbnailOption(
        name: "scp", longName: "strip_color_profile", syntax: "{1|0}",
        summary: "`1` (the default): the source's colours converted to sRGB, no profile written, as imgproxy does; "
            + "`0`: the source's own numbers, with its colour profile embedded",
        example: "scp:0",
        get: { $0.stripsColorProfile }, set: { $0.stripsColorProfile = $1 }, reset: { $0.stripsColorProfile = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "scp takes 1 (convert to sRGB, strip the profile) or 0 (keep it), as in scp:0")
            {
                $0 == "1" ? true : $0 == "0" ? false : nil
            }
        },
        spell: { strips, output in output.appendArgument(strips ? "1" : "0") }
    )

    /// The value of an option's one argument, read by `read`; `usage` is the error otherwise.
    static func single<Value>(
        _ arguments: OptionArguments, usage: String,
        _ read: (String) -> Value?
    ) throws(ServiceError) -> Value {
        guard arguments.count == 1, let value = read(arguments[0]) else { throw .badOptions(usage) }
        return value
    }

    /// `bg`'s colour: one hex argument, or three decimal channels (each 0…255; one left empty is 0).
    private static func parseBackground(_ arguments: OptionArguments) throws(ServiceError) -> RGBA8 {
        switch arguments.count {
        case 1:
            guard let color = parseColor(arguments[0]) else {
                throw .badOptions("bg takes a RRGGBB or RGB hex colour, or R:G:B from 0 to 255, as in bg:ffffff")
            }
            return color
        case 3:
            var channels: [UInt8] = []
            for (index, name) in ["red", "green", "blue"].enumerated() {
                if arguments[index].isEmpty {
                    channels.append(0)
                    continue
                }
                guard let value = OptionNumber.integer(arguments[index]), (0...255).contains(value) else {
                    throw .badOptions("bg's \(name) channel is a number from 0 to 255, as in bg:255:128:0")
                }
                channels.append(UInt8(value))
            }
            return RGBA8(red: channels[0], green: channels[1], blue: channels[2])
        default:
            throw .badOptions("bg takes a RRGGBB or RGB hex colour, or R:G:B from 0 to 255, as in bg:255:128:0")
        }
    }

    /// `RRGGBB`, or imgproxy's short `RGB` (each digit doubled: `F00` is `FF0000`).
    static func parseColor(_ text: String) -> RGBA8? {
        let digits = text.utf8.count == 3 ? String(text.flatMap { [$0, $0] }) : text
        guard digits.utf8.count == 6, digits.utf8.allSatisfy({ ASCII.hexValue($0) != ASCII.notHex }),
            let value = UInt32(digits, radix: 16)
        else {
            return nil
        }
        return RGBA8(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

}
