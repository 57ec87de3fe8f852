import Comet
import Foundation

/// The processing options of one service URL, parsed.
///
/// A URL's options are path segments, each `name:arg:arg…` (imgproxy's grammar; none: the
/// source re-encoded at its own size). The options, their long names and their arguments are
/// declared once, in ``table``; ``markdownTable`` and ``helpText`` list them. An option given
/// again overrides the earlier one (the parts it gives, for `rs`, `s` and `fq`; `skp` adds its
/// formats), as in imgproxy. An option given one empty argument (`q:`) is its default again, and
/// an argument left empty or out is that argument's default. Thread-safe (a value).
public struct ThumbnailOptions: Sendable, Hashable {
    /// The resize, when asked for.
    public var resize: Resize?
    /// The rectangle of source pixels cut out before the resize (`cr`), when asked for.
    public var cropRect: CropRect?
    /// The encoder quality (1...100), or `nil` for the format's default.
    public var quality: Int?
    /// The output format, or `nil` to negotiate it.
    public var format: OutputFormat?
    /// The colour a transparent result is laid on for a format without alpha (JPEG), or `nil`
    /// for white.
    public var background: RGBA8?
    /// `false` (`scp:0`): the source's colour numbers and profile are kept and the profile is
    /// embedded; `true` (`scp:1`) or `nil` (the default): converted to sRGB, no profile written.
    public var stripsColorProfile: Bool?
    /// Where a fill's cut is placed (`g`), or `nil` for the centre. Compass offsets are kept as
    /// given: below 1 in magnitude a fraction of the result's side, else pixels.
    public var gravity: ImageProcessors.Gravity?
    /// The device pixel ratio (`dpr`) that multiplies the resize, the padding and gravity
    /// offsets in pixels, or `nil` for 1.
    public var pixelRatio: Double?
    /// The area of the source cut out before the resize (`c`), or `nil`.
    public var cropArea: CropArea?
    /// Where the result is placed when it is extended to `rs`'s size (`ex:1`), or `nil`.
    public var extend: ImageProcessors.Gravity?
    /// Where the result is placed when it is extended to `rs`'s aspect ratio (`exar:1`), or
    /// `nil`.
    public var extendAspectRatio: ImageProcessors.Gravity?
    /// The border trimmed off the source (`t`), or `nil`.
    public var trim: Trim?
    /// `true` when `rs` may enlarge (`el:1`, folded into ``resize`` when there is one), else
    /// `nil`.
    public var enlarges: Bool?
    /// The least width of the resize's result (`mw`), or `nil`.
    public var minimumWidth: Int?
    /// The least height of the resize's result (`mh`), or `nil`.
    public var minimumHeight: Int?
    /// The zoom factors (`z`) that multiply the resize's width and height, or `nil`.
    public var zoom: Zoom?
    /// The clockwise turn of the source in degrees (90, 180 or 270; `rot`), or `nil`.
    public var rotation: Int?
    /// The mirroring of the source (`flip`), or `nil`.
    public var flip: Flip?
    /// Space added around the result (`pd`), or `nil`.
    public var padding: Padding?
    /// The Gaussian blur's σ in pixels of the result (`bl`), or `nil`.
    public var blur: Double?
    /// The unsharp mask's σ in pixels of the result (`sh`), or `nil`.
    public var sharpen: Double?
    /// The pixelation's block side in pixels of the result (`pix`), or `nil`.
    public var pixelate: Int?
    /// `true` when the result is turned grey (`grayscale`), else `nil`.
    public var grayscale: Bool?
    /// The brightness change in percent, -100…100 (`brightness`), or `nil`.
    public var brightness: Double?
    /// The contrast change in percent, -100…100 (`contrast`), or `nil`.
    public var contrast: Double?
    /// How the server's watermark is drawn over the result (`wm`), or `nil`.
    public var watermark: Watermark?
    /// Qualities for single formats (`fq`), over ``quality``, or `nil`.
    public var formatQualities: [OutputFormat: Int]?
    /// The most bytes a JPEG, WebP or AVIF result should have (`mb`), or `nil`.
    public var maximumBytes: Int?
    /// The source formats sent as they are (`skp`, `raw`), in canonical order, or `nil`.
    public var skippedSourceFormats: [AssetType]?
    /// `true` when a JPEG's embedded EXIF thumbnail is used when it is large enough (`eth:1`),
    /// else `nil`.
    public var enforcesThumbnail: Bool?
    /// A string that only changes the result key (`cb`), or `nil`.
    public var cacheBuster: String?
    /// The Unix time from which the URL is answered with 404 (`exp`), or `nil`.
    public var expires: Int?
    /// The file name of `Content-Disposition`, without the extension (`fn`), or `nil`.
    public var filename: String?
    /// `true` when the result is sent as an attachment (`att:1`), else `nil` (inline).
    public var returnsAttachment: Bool?
    /// `false` when the source's EXIF orientation is left unapplied (`ar:0`: the stored pixels),
    /// else `nil` (applied, the default).
    public var autoRotates: Bool?
    /// The most megapixels the source may declare (`msr`, a security option), or `nil` for the
    /// server's limit.
    public var maximumSourceResolution: Double?
    /// The most bytes the source may have (`msfs`, a security option), or `nil` for the server's
    /// limit.
    public var maximumSourceFileSize: Int?
    /// The most frames an animated source may have to stay animated (`maf`, a security option;
    /// 1 keeps none), or `nil` for the server's limit.
    public var maximumAnimationFrames: Int?
    /// The most megapixels one frame of an animation that stays animated may have (`mafr`, a
    /// security option), or `nil` for no limit but the server's.
    public var maximumAnimationFrameResolution: Double?
    /// The longest side the result may have (`mrd`, a security option): a larger result is
    /// scaled down to it, as in imgproxy; `nil` for none.
    public var maximumResultDimension: Int?

    /// Whether any of imgproxy's security options (`msr`, `msfs`, `maf`, `mafr`, `mrd`) is set;
    /// a server takes them only when it allows them (``ServerConfiguration/allowsSecurityOptions``).
    public var hasSecurityOptions: Bool {
        maximumSourceResolution != nil || maximumSourceFileSize != nil || maximumAnimationFrames != nil
            || maximumAnimationFrameResolution != nil || maximumResultDimension != nil
    }

    /// Creates options; by default none (the source at its own size, format negotiated).
    public init(
        resize: Resize? = nil, cropRect: CropRect? = nil, quality: Int? = nil, format: OutputFormat? = nil,
        background: RGBA8? = nil, stripsColorProfile: Bool? = nil
    ) {
        self.stripsColorProfile = stripsColorProfile
        self.resize = resize
        self.cropRect = cropRect
        self.quality = quality
        self.format = format
        self.background = background
    }

    /// The options in their canonical spelling (short names, in ``table``'s order, `/` between
    /// them as in a URL's path), e.g. `rs:fill:256:256/q:80/f:webp`; `""` for none. Equal options
    /// always spell the same, so it is the options' part of cache keys and ETags.
    public var canonical: String {
        String(decoding: canonicalBytes(includingFormat: true), as: UTF8.self)
    }

    /// The UTF-8 bytes of ``canonical``; without `f` when `includingFormat` is `false` (a result
    /// key holds the format it was made in, not the one asked for).
    func canonicalBytes(includingFormat: Bool) -> [UInt8] {
        var spelling: [UInt8] = []
        spelling.reserveCapacity(64)
        let entries = includingFormat ? Self.spelledEntries : Self.spelledEntriesWithoutFormat
        for entry in entries {
            // The table's entries live as long as the process: each is used without the retain
            // and release that a reference read from an array costs (twice for its closure),
            // 47 pairs of atomic operations on every request's key.
            _ = entry._withUnsafeGuaranteedRef { $0.spellArguments(self, &spelling) }
        }
        return spelling
    }

    /// The table's entries in its order, with and without `f`, unretained (see ``table``: its
    /// entries are never released).
    private static let spelledEntries = ContiguousArray(table.map(Unmanaged.passUnretained))
    private static let spelledEntriesWithoutFormat = ContiguousArray(
        table.filter { $0 !== format }.map(Unmanaged.passUnretained))

    /// Parses a URL's option segments (``ThumbnailPath/options``), checking each value against
    /// `maximumDimension` (the largest output width or height allowed), with `presets`: their
    /// `default` first, then the options in order, each `pr:NAME…` putting its presets' options
    /// there. As in imgproxy, an option given again overrides what came before it. Throws
    /// ``ServiceError`` (400) naming the first problem. Read over each segment's UTF-8 bytes.
    public static func parse(
        _ segments: [String], maximumDimension: Int, presets: ThumbnailPresets = .none
    ) throws(ServiceError) -> ThumbnailOptions {
        var options = ThumbnailOptions()
        if let base = presets.defaultOptions {
            try read(base, maximumDimension: maximumDimension, presets: presets, expanding: ["default"], into: &options)
        }
        try read(segments, maximumDimension: maximumDimension, presets: presets, expanding: [], into: &options)
        options.foldResize()
        options.foldCropGravity()
        try options.checkCombinedSides(maximumDimension: maximumDimension)
        return options
    }

    /// Parses options written as one text, `/` between them (`rs:fill:256:256/q:80`; `""` or
    /// `-` for none), as the segments overload parses a URL's segments.
    public static func parse(
        _ text: String, maximumDimension: Int, presets: ThumbnailPresets = .none
    ) throws(ServiceError) -> ThumbnailOptions {
        try parse(segments(of: text), maximumDimension: maximumDimension, presets: presets)
    }

    /// The option segments of `text` (`/` between them); none for `""` (or `-`, which earlier
    /// versions wrote for none).
    static func segments(of text: String) -> [String] {
        text.isEmpty || text == "-" ? [] : text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    /// The deepest a preset may name presets that name presets: each level may name several, so
    /// the work of one URL stays bounded however the presets are written.
    static let presetDepthLimit = 8

    /// Reads `segments`' options into `options`; `expanding` names the presets being expanded,
    /// outermost first (none for a URL's own options).
    static func read(
        _ segments: [String], maximumDimension: Int, presets: ThumbnailPresets, expanding: [String],
        into options: inout ThumbnailOptions
    ) throws(ServiceError) {
        for segment in segments {
            var text = segment
            try text.withUTF8 { bytes in
                Result { () throws(ServiceError) in
                    try read(
                        option: bytes, segment: segment, maximumDimension: maximumDimension, presets: presets,
                        expanding: expanding, into: &options)
                }
            }.get()
        }
    }

    /// Reads one option, `name:arg:arg…`.
    private static func read(
        option bytes: UnsafeBufferPointer<UInt8>, segment: String, maximumDimension: Int, presets: ThumbnailPresets,
        expanding: [String], into options: inout ThumbnailOptions
    ) throws(ServiceError) {
        let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
        let nameBytes = UnsafeBufferPointer(rebasing: bytes[..<colon])
        // Made only for the messages: the names are compared as bytes.
        var name: String { string(bytes, 0..<colon) }
        guard !nameBytes.isEmpty else { throw .badOptions("an empty option in \"\(segment)\"") }
        let arguments = OptionArguments(bytes, after: colon, upTo: bytes.endIndex)
        if ASCII.equal(nameBytes, Self.presetName) || ASCII.equal(nameBytes, Self.presetLongName) {
            guard expanding.count < presetDepthLimit else {
                throw .badOptions("pr: presets name presets more than \(presetDepthLimit) deep")
            }
            try presets.apply(arguments, maximumDimension: maximumDimension, expanding: expanding, to: &options)
            return
        }
        guard !presets.onlyPresets || !expanding.isEmpty else {
            throw .badOptions(
                "\(name): this server takes presets only (/{signature}/{name}:{name}/{source}), not options "
                    + "(comet-server --only-presets)")
        }
        guard let option = Self.option(named: nameBytes) else {
            throw .badOptions("unknown option \"\(name)\" (known: \(table.map(\.name).joined(separator: ", ")))")
        }
        guard arguments.count > 0 else {
            throw .badOptions("\(name) takes its arguments after a \":\", as in \(option.example)")
        }
        try option.read(arguments, maximumDimension: maximumDimension, into: &options)
    }

    /// One spelling for `c` placed by `g`'s gravity: a crop's own gravity equal to `g`'s (or to
    /// the centre, without `g`) is none.
    private mutating func foldCropGravity() {
        if let area = cropArea, area.gravity == (gravity ?? .center) { cropArea?.gravity = nil }
    }

    /// Throws when the device pixel ratio takes the resize, or the resize and the padding, past
    /// `maximumDimension` (each option alone is checked as it is read).
    private func checkCombinedSides(maximumDimension: Int) throws(ServiceError) {
        guard let resize else { return }
        let ratio = pixelRatio ?? 1
        let zoom = zoom ?? Zoom(x: 1, y: 1)
        let padding = padding ?? Padding(top: 0, right: 0, bottom: 0, left: 0)
        var (width, height) = (Double(resize.width) * zoom.x, Double(resize.height) * zoom.y)
        let hasLeastSides = minimumWidth != nil || minimumHeight != nil
        if hasLeastSides {
            // With a least side, each of the result's sides is at most the largest of all four.
            width = max(width, height, Double(minimumWidth ?? 0), Double(minimumHeight ?? 0))
            height = width
        }
        width = (width + Double(padding.left + padding.right)) * ratio
        height = (height + Double(padding.top + padding.bottom)) * ratio
        guard width.rounded() <= Double(maximumDimension), height.rounded() <= Double(maximumDimension) else {
            throw .badOptions(
                "\(hasLeastSides ? "rs, mw, mh, z, pd" : "rs, z, pd") and dpr together ask for a side over the "
                    + "largest allowed, \(maximumDimension) pixels")
        }
    }

    /// `pr` and `preset`, the option that names presets (not in ``table``: it stands for options).
    private static let presetName = Array("pr".utf8)
    private static let presetLongName = Array("preset".utf8)

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
