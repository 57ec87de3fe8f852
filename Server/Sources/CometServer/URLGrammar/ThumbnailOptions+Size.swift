import Comet

/// The size options: `rs`, imgproxy's meta-option, and the options that set one part of it
/// (`s`, `w`, `h`, `rt`), which are spelled inside `rs` so that one request has one key; and the
/// minimum sides `mw` and `mh`, which shape `rs`'s step.
extension ThumbnailOptions {
    static let resize = ThumbnailOption(
        name: "rs", longName: "resize", syntax: "{fit|fill|fill-down|force|auto}:{w}:{h}[:{up}[:{extend}[:{gravity}]]]",
        summary: "as imgproxy: `fit`: inside w×h, aspect kept; `fill`: cover w×h and cut it out, placed by `g` (a "
            + "source too small is kept whole but for what is over w×h, unless enlarging); `fill-down`: `fill`, but a "
            + "source too small gives the largest cut of w×h's shape it holds (spelled `fill` when enlarging); "
            + "`force`: stretch to w×h (without enlarging, the box's shape at most the source's size; `0` keeps "
            + "that side); `auto`: `fill` when the source and w×h are both landscape or both portrait, else `fit`. "
            + "`0` for one side follows the other (spelled `fit`), `0:0` is the source's size. `up` = `1` allows "
            + "enlarging (default `0`); `extend` and its gravity are `ex`'s (spelled so)",
        example: "rs:fill:256:256",
        get: { $0.resize.map { ResizeArguments(resize: $0, extend: nil) } },
        set: { options, arguments in
            options.resize = arguments.resize
            if let extend = arguments.extend { options.extend = extend }
        },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try parseResize(arguments, maximumDimension: maximumDimension)
        },
        spell: { arguments, output in
            let resize = arguments.resize
            output.appendArgument(resize.mode.rawValue)
            output.appendArgument(resize.width)
            output.appendArgument(resize.height)
            if resize.upscale { output.appendArgument("1") }
        },
        effect: { arguments, plan in plan.add(arguments.resize) }
    )

    static let size = ThumbnailOption(
        name: "s", longName: "size", syntax: "{w}:{h}[:{up}[:{extend}[:{gravity}]]]",
        summary: "`rs` without its type (each value may be left empty: unchanged); spelled as `rs`",
        example: "s:300:200",
        get: { _ in ResizeArguments?.none }, set: { options, arguments in arguments.merge(into: &options) },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try parseSize(arguments, maximumDimension: maximumDimension)
        },
        spell: { _, _ in }, effect: { _, _ in }
    )

    static let width = ThumbnailOption(
        name: "w", longName: "width", syntax: "{w}",
        summary: "`rs`'s width alone (`0`: from the height and the source's aspect ratio); spelled as `rs`",
        example: "w:300",
        get: { _ in Int?.none }, set: { options, width in options.editResize { $0.width = width } },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try side(arguments, name: "w", maximumDimension: maximumDimension)
        },
        spell: { _, _ in }, effect: { _, _ in }
    )

    static let height = ThumbnailOption(
        name: "h", longName: "height", syntax: "{h}",
        summary: "`rs`'s height alone (`0`: from the width and the source's aspect ratio); spelled as `rs`",
        example: "h:200",
        get: { _ in Int?.none }, set: { options, height in options.editResize { $0.height = height } },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try side(arguments, name: "h", maximumDimension: maximumDimension)
        },
        spell: { _, _ in }, effect: { _, _ in }
    )

    static let resizingType = ThumbnailOption(
        name: "rt", longName: "resizing_type", syntax: "{fit|fill|fill-down|force|auto}",
        summary: "`rs`'s type alone (default `fit`); with no width or height it resizes nothing; spelled as `rs`",
        example: "rt:fill",
        get: { _ in ResizeMode?.none }, set: { options, mode in options.editResize { $0.mode = mode } },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "rt takes one of fit, fill, fill-down, force, auto, as in rt:fill") {
                ResizeMode(rawValue: $0)
            }
        },
        spell: { _, _ in }, effect: { _, _ in }
    )

    static let minimumWidth = ThumbnailOption(
        name: "mw", longName: "min-width", syntax: "{w}",
        summary: "as imgproxy: the least width of the scaled image, times `dpr`: its scale is raised to reach it "
            + "(enlarging if need be), then the result is cut to `rs`'s sides (a side of 0 is not cut)",
        example: "mw:300",
        get: { $0.minimumWidth }, set: { $0.minimumWidth = $1 == 0 ? nil : $1 },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try side(arguments, name: "mw", maximumDimension: maximumDimension)
        },
        spell: { width, output in output.appendArgument(width) },
        effect: { width, plan in plan.minimumSize.width = width }
    )

    static let minimumHeight = ThumbnailOption(
        name: "mh", longName: "min-height", syntax: "{h}",
        summary: "the least height of `rs`'s result, as `mw` is its least width",
        example: "mh:200",
        get: { $0.minimumHeight }, set: { $0.minimumHeight = $1 == 0 ? nil : $1 },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try side(arguments, name: "mh", maximumDimension: maximumDimension)
        },
        spell: { height, output in output.appendArgument(height) },
        effect: { height, plan in plan.minimumSize.height = height }
    )

    /// What `rs` or `s` set: the parts of the resize given (`nil`: unchanged), and the extension
    /// when one is given (`.some(nil)`: none).
    struct ResizeArguments: Sendable {
        var resize: Resize
        var extend: ImageProcessors.Gravity??
        var mode: ResizeMode?
        var width: Int?
        var height: Int?
        var enlarges: Bool?

        init(resize: Resize, extend: ImageProcessors.Gravity??) {
            self.resize = resize
            self.extend = extend
        }

        /// `s`'s parts written over `options`' resize.
        func merge(into options: inout ThumbnailOptions) {
            options.editResize { resize in
                if let width { resize.width = width }
                if let height { resize.height = height }
            }
            if let enlarges { options.enlarges = enlarges ? true : nil }
            if let extend { options.extend = extend }
        }
    }

    /// A width or height from 0 to `maximumDimension`.
    private static func side(_ arguments: OptionArguments, name: String, maximumDimension: Int) throws(ServiceError)
        -> Int
    {
        try single(arguments, usage: "\(name) takes one side from 0 to \(maximumDimension) pixels, as in \(name):300") {
            OptionNumber.integer($0).flatMap { (0...maximumDimension).contains($0) ? $0 : nil }
        }
    }

    /// `rs`'s or `s`'s values from `first` on: enlarge, then extend and its gravity.
    private static func parseTail(
        _ arguments: OptionArguments, from first: Int, name: String, maximumDimension: Int
    ) throws(ServiceError) -> (enlarges: Bool?, extend: ImageProcessors.Gravity??) {
        var enlarges: Bool?
        if arguments.count > first, !arguments[first].isEmpty {
            guard let flag = flag(arguments[first]) else {
                throw .badOptions("\(name)'s value after the height (enlarge) is 1 or 0")
            }
            enlarges = flag
        }
        guard arguments.count > first + 1 else { return (enlarges, nil) }
        let extend = try parseExtension(
            arguments, from: first + 1, maximumDimension: maximumDimension, name: name)
        return (enlarges, .some(extend))
    }

    private static func parseResize(_ arguments: OptionArguments, maximumDimension: Int) throws(ServiceError)
        -> ResizeArguments
    {
        let usage =
            "rs takes a type (fit, fill, fill-down, force, auto), a width and a height, then optionally enlarge, "
            + "extend and its gravity, as in rs:fill:256:256"
        guard arguments.count >= 3, let mode = ResizeMode(rawValue: arguments[0]),
            let width = Int(arguments[1]), let height = Int(arguments[2]),
            width >= 0, height >= 0
        else {
            throw .badOptions(usage)
        }
        guard width <= maximumDimension, height <= maximumDimension else {
            throw .badOptions("rs: the largest output side allowed is \(maximumDimension) pixels")
        }
        let (enlarges, extend) = try parseTail(arguments, from: 3, name: "rs", maximumDimension: maximumDimension)
        let resize = Resize(mode: mode, width: width, height: height, upscale: enlarges ?? false)
        return ResizeArguments(resize: resize, extend: extend)
    }

    private static func parseSize(_ arguments: OptionArguments, maximumDimension: Int) throws(ServiceError)
        -> ResizeArguments
    {
        let usage =
            "s takes a width and a height from 0 to \(maximumDimension) (each may be empty), then optionally enlarge, "
            + "extend and its gravity, as in s:300:200"
        guard arguments.count >= 1 else { throw .badOptions(usage) }
        var sides: [Int?] = []
        for index in 0..<min(2, arguments.count) {
            guard !arguments[index].isEmpty else {
                sides.append(nil)
                continue
            }
            guard let side = OptionNumber.integer(arguments[index]), (0...maximumDimension).contains(side) else {
                throw .badOptions(usage)
            }
            sides.append(side)
        }
        let (enlarges, extend) = try parseTail(arguments, from: 2, name: "s", maximumDimension: maximumDimension)
        var result = ResizeArguments(resize: Resize(mode: .fit, width: 0, height: 0), extend: extend)
        result.width = sides[0]
        result.height = sides.count > 1 ? sides[1] : nil
        result.enlarges = enlarges
        return result
    }

    /// Changes the resize, starting from imgproxy's default (a fit of no size) when there is none.
    mutating func editResize(_ change: (inout Resize) -> Void) {
        var resize = resize ?? Resize(mode: .fit, width: 0, height: 0)
        change(&resize)
        self.resize = resize
    }

    /// The one spelling of the resize the size options set: none without a width or a height
    /// (`dpr`, `z`, `mw` and `mh` then scale the source alone: the plan makes that resize); a
    /// side of 0 makes every type but `force` a fit (they all scale by the other side);
    /// `fill-down` that enlarges is `fill` that enlarges (imgproxy makes them alike).
    mutating func foldResize() {
        guard var resize else { return }
        if enlarges == true {
            // One spelling, and so one key, for rs:…:1 and rs:…/el:1.
            resize.upscale = true
            enlarges = nil
        }
        if resize.width == 0 && resize.height == 0 {
            if resize.upscale { enlarges = true }
            self.resize = nil
            return
        }
        if resize.mode == .fillDown && resize.upscale { resize.mode = .fill }
        if (resize.width == 0 || resize.height == 0) && resize.mode != .force { resize.mode = .fit }
        self.resize = resize
    }
}
