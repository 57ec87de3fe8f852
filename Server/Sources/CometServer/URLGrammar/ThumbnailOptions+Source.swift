import Comet

/// The options about the source's bytes and metadata: which source formats are sent as they
/// are (`skp`, `raw`), and imgproxy's metadata switches (`sm`, `kcr`), of which the server does
/// what its encoders do: they write no EXIF, XMP or IPTC.
extension ThumbnailOptions {
    static let skipProcessing = ThumbnailOption(
        name: "skp", longName: "skip_processing", syntax: "{ext}[:{ext}…]",
        summary: "a source in one of these formats (`jpg`, `png`, `webp`, `avif`, `gif`, `heic`, `jxl`; told by its "
            + "bytes, not its name) is sent as it is, with its own type, unprocessed, unless the URL asks for another "
            + "format (`f` or the extension), as in imgproxy; any other is processed. Each "
            + "`skp` adds to the formats named before it, as in imgproxy; `skp:` names none again",
        example: "skp:jpg:png",
        get: { $0.skippedSourceFormats },
        set: { options, formats in
            // As in imgproxy, the formats are added to those an earlier skp (or raw) named.
            let named = Set(formats + (options.skippedSourceFormats ?? []))
            options.skippedSourceFormats = named.isEmpty ? nil : skippableFormats.map(\.type).filter(named.contains)
        },
        reset: { $0.skippedSourceFormats = nil },
        parse: { arguments, _ throws(ServiceError) in
            let usage =
                "skp takes 1 to \(OptionArguments.capacity) source formats (jpg, png, webp, avif, gif, heic, jxl), "
                + "as in skp:jpg:png"
            guard (1...OptionArguments.capacity).contains(arguments.count) else { throw .badOptions(usage) }
            var formats: Set<AssetType> = []
            for index in 0..<arguments.count where !arguments[index].isEmpty {
                guard let format = skippableFormats.first(where: { $0.names.contains(arguments[index]) }) else {
                    throw .badOptions(usage)
                }
                formats.insert(format.type)
            }
            return skippableFormats.map(\.type).filter(formats.contains)
        },
        spell: { formats, output in
            for format in formats {
                if let names = skippableFormats.first(where: { $0.type == format })?.names {
                    output.appendArgument(names[0])
                }
            }
        }
    )

    static let raw = ThumbnailOption(
        name: "raw", longName: "raw", syntax: "{1|0}",
        summary: "`1`: `skp` of every format the server decodes (spelled so). Unlike imgproxy's, the source still "
            + "waits in the queue and is held to the limits, and only image bytes are sent as they are",
        example: "raw:1",
        get: { _ in Bool?.none },
        set: { options, raw in if raw { options.skippedSourceFormats = skippableFormats.map(\.type) } },
        reset: { _ in },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "raw takes 1 or 0, as in raw:1") { flag($0) }
        },
        spell: { _, _ in }
    )

    static let stripMetadata = ThumbnailOption(
        name: "sm", longName: "strip_metadata", syntax: "{1}",
        summary: "`1`, the default and the only value: results carry no EXIF, XMP or IPTC (the encoders write none; "
            + "the colour profile is `scp`'s); `0` is a 400",
        example: "sm:1",
        get: { _ in Bool?.none }, set: { _, _ in }, reset: { _ in },
        parse: { arguments, _ throws(ServiceError) in
            let strips = try single(arguments, usage: "sm takes 1 (strip the metadata, the default), as in sm:1") {
                flag($0)
            }
            guard strips else {
                throw .badOptions("sm:0 is not supported: results carry no EXIF, XMP or IPTC (scp:0 keeps the profile)")
            }
            return strips
        },
        spell: { _, _ in }
    )

    static let keepCopyright = ThumbnailOption(
        name: "kcr", longName: "keep_copyright", syntax: "{0}",
        summary: "`0`, the only value: no copyright or artist field is kept, as no metadata is (`1` is a 400)",
        example: "kcr:0",
        get: { _ in Bool?.none }, set: { _, _ in }, reset: { _ in },
        parse: { arguments, _ throws(ServiceError) in
            let keeps = try single(arguments, usage: "kcr takes 0 (keep no copyright field), as in kcr:0") {
                flag($0)
            }
            guard !keeps else {
                throw .badOptions("kcr:1 is not supported: results carry no EXIF, so no copyright or artist field")
            }
            return keeps
        },
        spell: { _, _ in }
    )

    static let enforceThumbnail = ThumbnailOption(
        name: "eth", longName: "enforce_thumbnail", syntax: "{1|0}",
        summary: "`1`: a JPEG source whose EXIF carries a JPEG thumbnail at least as large as `rs`'s width and height "
            + "(an upright source only) is made from that thumbnail instead of the full decode",
        example: "eth:1",
        get: { $0.enforcesThumbnail }, set: { $0.enforcesThumbnail = $1 ? true : nil },
        reset: { $0.enforcesThumbnail = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "eth takes 1 or 0, as in eth:1") { flag($0) }
        },
        spell: { _, output in output.appendArgument("1") }
    )

    static let autoRotate = ThumbnailOption(
        name: "ar", longName: "auto_rotate", syntax: "{1|0}",
        summary: "`1`, the default: the source's EXIF orientation (JPEG, PNG's `eXIf`, AVIF, JPEG XL) is applied, "
            + "so it comes out upright; `0`: its pixels as stored (HEIC always comes out upright)",
        example: "ar:0",
        get: { $0.autoRotates }, set: { $0.autoRotates = $1 ? nil : false }, reset: { $0.autoRotates = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "ar takes 1 (apply the EXIF orientation) or 0, as in ar:0") { flag($0) }
        },
        spell: { _, output in output.appendArgument("0") }
    )

    /// The source formats `skp` names, in canonical order, each with its names (the first is
    /// the canonical one): the formats Comet decodes, by their file extensions in Imaging's
    /// registry.
    static let skippableFormats: [(type: AssetType, names: [String])] = ImageFormat.all.filter(\.isDecoded).map {
        ($0.type, $0.fileExtensions)
    }
}
