import Comet

/// The size options: `rs`, imgproxy's meta-option, and the options that set one part of it
/// (`s`, `w`, `h`, `rt`), which are spelled inside `rs` so that one request has one key; and the
/// minimum sides `mw` and `mh`, which shape `rs`'s step.
extension ThumbnailOptions {
    static let resize = ThumbnailOption(
        name: "rs", longName: "resize",
        syntax: "{fit|fill|fill-down|force|auto}[:{w}[:{h}[:{up}[:{extend}[:{gravity}]]]]]",
        summary: "as imgproxy: `fit`: inside w×h, aspect kept; `fill`: cover w×h and cut it out, placed by `g` (a "
            + "source too small is kept whole but for what is over w×h, unless enlarging); `fill-down`: `fill`, but a "
            + "source too small gives the largest cut of w×h's shape it holds (spelled `fill` when enlarging); "
            + "`force`: stretch to w×h (without enlarging, the box's shape at most the source's size; `0` keeps "
            + "that side); `auto`: `fill` when the source and w×h are both landscape or both portrait, else `fit`. "
            + "`0` for one side follows the other (spelled `fit`), `0:0` is the source's size. `up` = `1` allows "
            + "enlarging (default `0`); `extend` and its gravity are `ex`'s (spelled so). A value left empty or out "
            + "leaves that part as it was (`rt`, `s`, `el`, `ex`)",
        example: "rs:fill:256:256",
        get: { $0.resize.map { ResizeArguments(resize: $0, extend: nil) } },
        set: { options, arguments in arguments.merge(into: &options) }, reset: nil,
        parse: { arguments, maximumDimension throws(ServiceError) in
            try parseResize(arguments, maximumDimension: maximumDimension)
        },
        spell: { arguments, output in
            let resize = arguments.resize
            output.appendArgument(resize.mode.rawValue)
            output.appendArgument(resize.width)
            output.appendArgument(resize.height)
            if resize.upscale { output.appendArgument("1") }
        }
    )

    static let size = ThumbnailOption(
        name: "s", longName: "size", syntax: "{w}:{h}[:{up}[:{extend}[:{gravity}]]]",
        summary: "`rs` without its type (each value may be left empty: unchanged); spelled as `rs`",
        example: "s:300:200",
        get: { _ in ResizeArguments?.none }, set: { options, arguments in arguments.merge(into: &options) },
        reset: nil,
        parse: { arguments, maximumDimension throws(ServiceError) in
            try parseSize(arguments, from: 0, name: "s", maximumDimension: maximumDimension)
        },
        spell: { _, _ in }
    )

    static let width = ThumbnailOption(
        name: "w", longName: "width", syntax: "{w}",
        summary: "`rs`'s width alone (`0`: from the height and the source's aspect ratio); spelled as `rs`",
        example: "w:300",
        get: { _ in Int?.none }, set: { options, width in options.editResize { $0.width = width } },
        reset: { options in options.editResize { $0.width = 0 } },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try side(arguments, name: "w", maximumDimension: maximumDimension)
        },
        spell: { _, _ in }
    )

    static let height = ThumbnailOption(
        name: "h", longName: "height", syntax: "{h}",
        summary: "`rs`'s height alone (`0`: from the width and the source's aspect ratio); spelled as `rs`",
        example: "h:200",
        get: { _ in Int?.none }, set: { options, height in options.editResize { $0.height = height } },
        reset: { options in options.editResize { $0.height = 0 } },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try side(arguments, name: "h", maximumDimension: maximumDimension)
        },
        spell: { _, _ in }
    )

    static let resizingType = ThumbnailOption(
        name: "rt", longName: "resizing_type", syntax: "{fit|fill|fill-down|force|auto}",
        summary: "`rs`'s type alone (default `fit`); with no width or height it resizes nothing; spelled as `rs`",
        example: "rt:fill",
        get: { _ in ResizeMode?.none }, set: { options, mode in options.editResize { $0.mode = mode } },
        reset: { options in options.editResize { $0.mode = .fit } },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "rt takes one of fit, fill, fill-down, force, auto, as in rt:fill") {
                ResizeMode(rawValue: $0)
            }
        },
        spell: { _, _ in }
    )

    static let minimumWidth = ThumbnailOption(
        name: "mw", longName: "min-width", syntax: "{w}",
        summary: "as imgproxy: the least width of the scaled image, times `dpr`: its scale is raised to reach it "
            + "(enlarging if need be), then the result is cut to `rs`'s sides (a side of 0 is not cut)",
        example: "mw:300",
        get: { $0.minimumWidth }, set: { $0.minimumWidth = $1 == 0 ? nil : $1 }, reset: { $0.minimumWidth = nil },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try side(arguments, name: "mw", maximumDimension: maximumDimension)
        },
        spell: { width, output in output.appendArgument(width) }
    )

    static let minimumHeight = ThumbnailOption(
        name: "mh", longName: "min-height", syntax: "{h}",
        summary: "the least height of `rs`'s result, as `mw` is its least width",
        example: "mh:200",
        get: { $0.minimumHeight }, set: { $0.minimumHeight = $1 == 0 ? nil : $1 }, reset: { $0.minimumHeight = nil },
        parse: { arguments, maximumDimension throws(ServiceError) in
            try side(arguments, name: "mh", maximumDimension: maximumDimension)
        },
        spell: { height, output in output.appendArgument(height) }
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

        /// The parts given written over `options`' resize.
        func merge(into options: inout ThumbnailOptions) {
            options.editResize { resize in
                if let mode { resize.mode = mode }
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

    /// `rs`'s values: a type (left empty: unchanged), then `s`'s values.
    private static func parseResize(_ arguments: OptionArguments, maximumDimension: Int) throws(ServiceError)
        -> ResizeArguments
    {
        guard arguments.count <= 8, arguments[0].isEmpty || ResizeMode(rawValue: arguments[0]) != nil else {
            throw .badOptions(
                "rs takes a type (fit, fill, fill-down, force, auto), a width and a height, then optionally enlarge, "
                    + "extend and its gravity, as in rs:fill:256:256")
        }
        var result = try parseSize(arguments, from: 1, name: "rs", maximumDimension: maximumDimension)
        result.mode = ResizeMode(rawValue: arguments[0])
        return result
    }

    /// `s`'s values, from `first` on (`rs`'s after its type): width, height, enlarge, then extend
    /// and its gravity, each left empty or out unchanged (an extension whose flag is left empty
    /// is unchanged, its gravity too, as in imgproxy).
    private static func parseSize(_ arguments: OptionArguments, from first: Int, name: String, maximumDimension: Int)
        throws(ServiceError) -> ResizeArguments
    {
        guard arguments.count - first <= 7 else {
            throw .badOptions(
                "\(name) takes a width and a height, then optionally enlarge, extend and its gravity, as in "
                    + "\(name == "rs" ? "rs:fill:300:200" : "s:300:200")")
        }
        func side(_ index: Int) throws(ServiceError) -> Int? {
            guard !arguments.isAbsentOrEmpty(index) else { return nil }
            guard let side = OptionNumber.integer(arguments[index]), (0...maximumDimension).contains(side) else {
                throw .badOptions(
                    "\(name): a width or height is a number of pixels from 0 to \(maximumDimension), the largest "
                        + "output side allowed")
            }
            return side
        }
        var result = ResizeArguments(resize: Resize(mode: .fit, width: 0, height: 0), extend: nil)
        result.width = try side(first)
        result.height = try side(first + 1)
        if !arguments.isAbsentOrEmpty(first + 2) {
            guard let enlarges = flag(arguments[first + 2]) else {
                throw .badOptions("\(name)'s value after the height (enlarge) is 1 or 0")
            }
            result.enlarges = enlarges
        }
        if !arguments.isAbsentOrEmpty(first + 3) {
            result.extend = .some(
                try parseExtension(arguments, from: first + 3, maximumDimension: maximumDimension, name: name))
        }
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
