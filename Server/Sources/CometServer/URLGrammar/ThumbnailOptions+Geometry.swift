import Comet

extension ThumbnailOptions {
    static let trim = ThumbnailOption(
        name: "t", longName: "trim", syntax: "{threshold}[:{RRGGBB}[:{h}[:{v}]]]",
        summary: "cut off the source's border of pixels within `threshold` (0…255 per channel) of the colour "
            + "(default: the top left pixel), first of all; a source with transparency is judged as laid on magenta, "
            + "as imgproxy does (its transparent border is `ff00ff`'s); `h`/`v` = `1` make the left and right (top and "
            + "bottom) cuts equal (default `0`). Any value may be left empty for its default; an empty threshold is no "
            + "trim, as in imgproxy. It needs the whole decode",
        example: "t:10:ffffff:1:0",
        get: { $0.trim.map { Optional($0) } }, set: { $0.trim = $1 }, reset: { $0.trim = nil },
        parse: { arguments, _ throws(ServiceError) in try parseTrim(arguments) },
        spell: { trim, output in
            guard let trim else { return }
            output.appendArgument(trim.threshold)
            guard trim.color != nil || trim.equalHorizontal || trim.equalVertical else { return }
            output.append(UInt8(ascii: ":"))
            if let color = trim.color {
                for channel in [color.red, color.green, color.blue] { ASCII.appendLowerHex(channel, to: &output) }
            }
            output.appendArgument(trim.equalHorizontal ? "1" : "0")
            output.appendArgument(trim.equalVertical ? "1" : "0")
        }
    )

    static let enlarge = ThumbnailOption(
        name: "el", longName: "enlarge", syntax: "{1|0}",
        summary: "`1`: `rs` may enlarge, as its fourth value `1` says (and spelled so)",
        example: "el:1",
        get: { $0.enlarges }, set: { $0.enlarges = $1 ? true : nil }, reset: { $0.enlarges = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "el takes 1 or 0, as in el:1") { flag($0) }
        },
        spell: { _, output in output.appendArgument("1") }
    )

    static let rotate = ThumbnailOption(
        name: "rot", longName: "rotate", syntax: "{angle}",
        summary: "turn the source clockwise by a multiple of 90° (`-90` is `270`), before `cr` and `rs`, whose "
            + "rectangles and sizes are then of the turned image",
        example: "rot:90",
        get: { $0.rotation }, set: { $0.rotation = $1 == 0 ? nil : $1 }, reset: { $0.rotation = nil },
        parse: { arguments, _ throws(ServiceError) in
            let degrees = try single(arguments, usage: "rot takes one angle in degrees, as in rot:90") {
                OptionNumber.integer($0)
            }
            let rotate = ImageProcessors.Rotate(degrees: degrees)
            try validating("rot") { () throws(ImageProcessingError) in try rotate.validate() }
            return rotate.degrees
        },
        spell: { degrees, output in output.appendArgument(degrees) }
    )

    static let flip = ThumbnailOption(
        name: "fl", longName: "flip", syntax: "{h}[:{v}]",
        summary: "mirror the source: `h` = `1` swaps left and right, `v` = `1` top and bottom (each may be left "
            + "empty or out: `0`); after `rot`, before `cr`",
        example: "fl:1:0",
        get: { $0.flip }, set: { $0.flip = $1.horizontal || $1.vertical ? $1 : nil }, reset: { $0.flip = nil },
        parse: { arguments, _ throws(ServiceError) in
            // As imgproxy: either flag may be left empty or out (`flip:1`, `flip::1`): not flipped.
            func optionalFlag(_ index: Int) -> Bool? {
                index >= arguments.count || arguments[index].isEmpty ? false : flag(arguments[index])
            }
            guard (1...2).contains(arguments.count), let horizontal = optionalFlag(0), let vertical = optionalFlag(1)
            else {
                throw .badOptions("fl takes two flags (horizontal, vertical), each 1 or 0, as in fl:1:0")
            }
            return Flip(horizontal: horizontal, vertical: vertical)
        },
        spell: { flip, output in
            output.appendArgument(flip.horizontal ? "1" : "0")
            output.appendArgument(flip.vertical ? "1" : "0")
        }
    )

    static let gravity = ThumbnailOption(
        name: "g", longName: "gravity", syntax: "{no|so|ea|we|noea|nowe|soea|sowe|ce}[:{x}:{y}] or fp:{x}:{y} or sm",
        summary: "which part `rs:fill` keeps: a compass point, offsets inward from its edges (below 1: a fraction "
            + "of the result's side; else pixels, times `dpr`; each may be left empty or out: 0); a focus point at "
            + "fractions of the width and height; or `sm`, the part with the most detail, saturated colour and skin "
            + "tones. Default `ce`",
        example: "g:soea:10:0.25",
        get: { $0.gravity }, set: { $0.gravity = $1 == .center ? nil : $1 }, reset: { $0.gravity = nil },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try parseGravity((0..<arguments.count).map { arguments[$0] }, maximumDimension: maximumDimension)
        },
        spell: { gravity, output in spellGravity(gravity, to: &output) }
    )

    static let cropArea = ThumbnailOption(
        name: "c", longName: "crop", syntax: "{w}:{h}[:{gravity}]",
        summary: "imgproxy's `crop`: cut a `w` × `h` area of the source before the "
            + "resize, a side below 1 a fraction of the source's, 0 (or left empty or out) the whole side, placed by a "
            + "gravity as `g` takes (offsets in source pixels, or fractions below 1), default `g`'s",
        example: "c:0.5:0:sm",
        get: { $0.cropArea },
        set: { $0.cropArea = $1.width == 0 && $1.height == 0 ? nil : $1 }, reset: { $0.cropArea = nil },
        parse: { arguments, maximumDimension throws(ServiceError) in
            let usage =
                "c takes a width and a height (pixels, fractions below 1, or 0 for the whole side) and an "
                + "optional gravity, as in c:0.5:300:soea"
            func side(_ index: Int) -> Double? {
                arguments.isAbsentOrEmpty(index)
                    ? 0
                    : OptionNumber.decimal(arguments[index]).flatMap {
                        (0...Double(maxSourceSide)).contains($0) ? $0 : nil
                    }
            }
            guard (1...5).contains(arguments.count), let width = side(0), let height = side(1) else {
                throw .badOptions(usage)
            }
            guard arguments.count > 2, (2..<arguments.count).contains(where: { !arguments[$0].isEmpty }) else {
                return CropArea(width: width, height: height, gravity: nil)
            }
            let gravity = try parseGravity(
                (2..<arguments.count).map { arguments[$0] }, maximumDimension: maxSourceSide, name: "c")
            return CropArea(width: width, height: height, gravity: gravity)
        },
        spell: { area, output in
            output.appendArgument(area.width)
            output.appendArgument(area.height)
            if let gravity = area.gravity { spellGravity(gravity, to: &output) }
        }
    )

    static let extend = ThumbnailOption(
        name: "ex", longName: "extend", syntax: "{1|0}[:{gravity}]",
        summary: "`1`: a result smaller than `rs`'s size is laid on a canvas of that size, in `bg` (default "
            + "transparent), placed by a gravity as `g` takes but `sm` (default `ce`); after the effects",
        example: "ex:1:so",
        get: { $0.extend.map { Optional($0) } }, set: { $0.extend = $1 }, reset: { $0.extend = nil },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try parseExtension(arguments, maximumDimension: maximumDimension, name: "ex")
        },
        spell: { gravity, output in
            output.appendArgument("1")
            if let gravity, gravity != .center { spellGravity(gravity, to: &output) }
        }
    )

    static let extendAspectRatio = ThumbnailOption(
        name: "exar", longName: "extend_aspect_ratio", aliases: ["extend_ar"], syntax: "{1|0}[:{gravity}]",
        summary: "`1`: the result's short side is extended to `rs`'s aspect ratio, as `ex` extends",
        example: "exar:1:we",
        get: { $0.extendAspectRatio.map { Optional($0) } }, set: { $0.extendAspectRatio = $1 },
        reset: { $0.extendAspectRatio = nil },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try parseExtension(arguments, maximumDimension: maximumDimension, name: "exar")
        },
        spell: { gravity, output in
            output.appendArgument("1")
            if let gravity, gravity != .center { spellGravity(gravity, to: &output) }
        }
    )

    /// `ex`'s or `exar`'s gravity (its arguments from `first` on), or `nil` for `0` (no extension;
    /// a flag left empty is `0`, as a gravity left empty is `ce`).
    static func parseExtension(
        _ arguments: OptionArguments, from first: Int = 0, maximumDimension: Int, name: String
    ) throws(ServiceError) -> ImageProcessors.Gravity? {
        guard arguments.count > first, arguments.count <= first + 4,
            let extends = arguments[first].isEmpty ? false : flag(arguments[first])
        else {
            throw .badOptions("\(name) takes 1 or 0 and an optional gravity, as in \(name):1:so")
        }
        guard (first + 1..<arguments.count).contains(where: { !arguments[$0].isEmpty }) else {
            return extends ? .center : nil
        }
        let gravity = try parseGravity(
            (first + 1..<arguments.count).map { arguments[$0] }, maximumDimension: maximumDimension, name: name)
        guard gravity != .smart else { throw .badOptions("\(name): sm cannot place an extended image") }
        return extends ? gravity : nil
    }

    /// The largest side or offset `c` takes, in source pixels.
    static let maxSourceSide = 100_000

    private static func spellGravity(_ gravity: ImageProcessors.Gravity, to output: inout [UInt8]) {
        switch gravity {
        case .compass(let point, let x, let y):
            output.appendArgument(point.rawValue)
            if x != 0 || y != 0 {
                output.appendArgument(x)
                output.appendArgument(y)
            }
        case .focusPoint(let x, let y):
            output.appendArgument("fp")
            output.appendArgument(x)
            output.appendArgument(y)
        case .smart:
            output.appendArgument("sm")
        }
    }

    static let pixelRatio = ThumbnailOption(
        name: "dpr", longName: "dpr", syntax: "{ratio}",
        summary: "the device pixel ratio, above 0 and at most 8: scales the result (with or without `rs`: "
            + "`c:50:50/dpr:0.5` is 25×25) and multiplies the sides of `pd` and the pixel offsets of `g`, `ex` and "
            + "`wm`; as imgproxy, without enlarging it is lowered to what does not enlarge the source",
        example: "dpr:2",
        get: { $0.pixelRatio }, set: { $0.pixelRatio = $1 == 1 ? nil : $1 }, reset: { $0.pixelRatio = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "dpr takes one ratio above 0 and at most 8, as in dpr:2") {
                OptionNumber.decimal($0).flatMap { $0 > 0 && $0 <= maximumPixelRatio ? $0 : nil }
            }
        },
        spell: { ratio, output in output.appendArgument(ratio) }
    )

    static let zoom = ThumbnailOption(
        name: "z", longName: "zoom", syntax: "{x}[:{y}]",
        summary: "factors above 0 and at most 8 that multiply `rs`'s width and height (one for both; the height's "
            + "left empty is the width's, the width's left empty is 1), as `dpr` does but without its offsets and "
            + "padding",
        example: "z:1.5:2",
        get: { $0.zoom }, set: { $0.zoom = $1.x == 1 && $1.y == 1 ? nil : $1 }, reset: { $0.zoom = nil },
        parse: { arguments, _ throws(ServiceError) in
            let usage = "z takes one or two factors above 0 and at most 8, as in z:1.5 or z:1.5:2"
            guard arguments.count == 1 || arguments.count == 2 else { throw .badOptions(usage) }
            func factor(_ index: Int) throws(ServiceError) -> Double {
                guard let factor = OptionNumber.decimal(arguments[index]), factor > 0, factor <= maximumPixelRatio
                else { throw .badOptions(usage) }
                return factor
            }
            let x = try arguments[0].isEmpty ? 1 : factor(0)
            let y = try arguments.isAbsentOrEmpty(1) ? x : factor(1)
            return Zoom(x: x, y: y)
        },
        spell: { zoom, output in
            output.appendArgument(zoom.x)
            if zoom.y != zoom.x { output.appendArgument(zoom.y) }
        }
    )

    static let padding = ThumbnailOption(
        name: "pd", longName: "padding", syntax: "{top}[:{right}[:{bottom}[:{left}]]]",
        summary: "space added around the result, in pixels times `dpr`, as CSS gives sides (a right left empty or "
            + "out is the top, a bottom the top, a left the right; a top 0), in the `bg` colour (default transparent)",
        example: "pd:10:20:10:20",
        get: { $0.padding },
        set: { $0.padding = $1 == Padding(top: 0, right: 0, bottom: 0, left: 0) ? nil : $1 },
        reset: { $0.padding = nil },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try parsePadding(arguments, maximumDimension: maximumDimension)
        },
        spell: { padding, output in
            for side in [padding.top, padding.right, padding.bottom, padding.left] { output.appendArgument(side) }
        }
    )

    /// The largest `dpr`: beyond it a ratio is a mistake, not a screen.
    static let maximumPixelRatio = 8.0

    /// A gravity from its arguments: a compass point and up to two offsets (each left empty or
    /// out: 0; a point left empty: `ce`), `fp` and two fractions (each left empty: 0), or `sm`.
    private static func parseGravity(_ arguments: [String], maximumDimension: Int, name: String = "g")
        throws(ServiceError) -> ImageProcessors.Gravity
    {
        let usage =
            "\(name): a gravity is a compass point (no, so, ea, we, noea, nowe, soea, sowe, ce) and optional x and "
            + "y offsets, fp:x:y, or sm, as in g:soea:10:10"
        guard (1...3).contains(arguments.count) else { throw .badOptions(usage) }
        func offset(_ index: Int, within range: ClosedRange<Double>) -> Double? {
            guard index < arguments.count, !arguments[index].isEmpty else { return 0 }
            return OptionNumber.decimal(arguments[index]).flatMap { range.contains($0) ? $0 : nil }
        }
        switch arguments[0] {
        case "sm":
            guard arguments.count == 1 else { throw .badOptions("\(name): sm takes no offsets") }
            return .smart
        case "fp":
            guard arguments.count == 3, let x = offset(1, within: 0...1), let y = offset(2, within: 0...1) else {
                throw .badOptions(
                    "\(name): fp takes x and y as fractions from 0 to 1 of the width and height, as in g:fp:0.5:0.3")
            }
            return .focusPoint(x: x, y: y)
        case let type:
            guard let point = type.isEmpty ? .center : ImageProcessors.Gravity.Compass(rawValue: type) else {
                throw .badOptions(usage)
            }
            let limit = Double(maximumDimension)
            guard let x = offset(1, within: -limit...limit), let y = offset(2, within: -limit...limit) else {
                throw .badOptions("\(name): a gravity's offsets are numbers of at most \(maximumDimension) pixels")
            }
            return .compass(point, offsetX: x, offsetY: y)
        }
    }

    private static func parsePadding(_ arguments: OptionArguments, maximumDimension: Int) throws(ServiceError)
        -> Padding
    {
        let usage = "pd takes one to four sides in pixels (top, right, bottom, left), as in pd:10:20"
        guard (1...4).contains(arguments.count) else { throw .badOptions(usage) }
        // A side left empty is one left out.
        func side(_ index: Int) throws(ServiceError) -> Int? {
            guard !arguments.isAbsentOrEmpty(index) else { return nil }
            guard let side = OptionNumber.integer(arguments[index]) else { throw .badOptions(usage) }
            return side
        }
        let top = try side(0) ?? 0
        let right = try side(1) ?? top
        let bottom = try side(2) ?? top
        let left = try side(3) ?? right
        let check = ImageProcessors.Padding(
            top: Double(top), right: Double(right), bottom: Double(bottom), left: Double(left),
            maximumSide: maximumDimension)
        try validating("pd") { () throws(ImageProcessingError) in try check.validate() }
        return Padding(top: top, right: right, bottom: bottom, left: left)
    }

    /// A trim, or `nil` for a threshold left empty (no trim, as in imgproxy); a colour or a flag
    /// left empty or out is its default (the top left pixel, `0`).
    private static func parseTrim(_ arguments: OptionArguments) throws(ServiceError) -> Trim? {
        let usage =
            "t takes a threshold, then optionally a RRGGBB colour and two flags (each may be left empty), as in "
            + "t:10:ffffff:1:0"
        guard (1...4).contains(arguments.count) else { throw .badOptions(usage) }
        guard !arguments[0].isEmpty else { return nil }
        guard let threshold = OptionNumber.decimal(arguments[0]) else { throw .badOptions(usage) }
        var trim = Trim(threshold: threshold)
        if !arguments.isAbsentOrEmpty(1) {
            guard let color = parseColor(arguments[1]) else { throw .badOptions(usage) }
            trim.color = color
        }
        func optionalFlag(_ index: Int) throws(ServiceError) -> Bool {
            guard !arguments.isAbsentOrEmpty(index) else { return false }
            guard let value = flag(arguments[index]) else { throw .badOptions(usage) }
            return value
        }
        trim.equalHorizontal = try optionalFlag(2)
        trim.equalVertical = try optionalFlag(3)
        let check = ImageProcessors.Trim(threshold: threshold)
        try validating("t") { () throws(ImageProcessingError) in try check.validate() }
        return trim
    }

    /// `1`, `t`, `T`, `true`, `TRUE` or `True`; `0`, `f`, `F`, `false`, `FALSE` or `False`: imgproxy's
    /// booleans. Anything else is `nil` (a 400; imgproxy reads it as `false`).
    static func flag(_ text: String) -> Bool? {
        switch text {
        // Go's strconv.ParseBool, which imgproxy reads booleans with.
        case "1", "t", "T", "true", "TRUE", "True": true
        case "0", "f", "F", "false", "FALSE", "False": false
        default: nil
        }
    }

    /// Runs a processor's `validate()`, its complaint becoming a 400 that names the option.
    static func validating(_ name: String, _ check: () throws(ImageProcessingError) -> Void) throws(ServiceError) {
        do {
            try check()
        } catch {
            throw .badOptions("\(name): \(error.reason)")
        }
    }
}
