import Comet

/// The delivery options: they change how a result is keyed, checked or sent, not its pixels.
extension ThumbnailOptions {
    static let cacheBuster = ThumbnailOption(
        name: "cb", longName: "cachebuster", syntax: "{string}",
        summary: "any string of up to 64 letters, digits, `.`, `_`, `~` or `-`: changes the result key and the "
            + "ETag, nothing else",
        example: "cb:v2",
        get: { $0.cacheBuster }, set: { $0.cacheBuster = $1 }, reset: { $0.cacheBuster = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "cb takes one string of up to 64 letters, digits, ., _, ~ or -, as in cb:v2") {
                let bytes = $0.utf8
                return (1...64).contains(bytes.count) && bytes.allSatisfy(ASCII.isUnreserved) ? $0 : nil
            }
        },
        spell: { text, output in output.appendArgument(text) }
    )

    static let expires = ThumbnailOption(
        name: "exp", longName: "expires", syntax: "{unix time}",
        summary: "the URL's end, in seconds since 1970: from then on it is a 404, as in imgproxy; until then "
            + "`Cache-Control`'s max-age ends there at the latest. `0` or below: no end, as imgproxy reads them",
        example: "exp:4102444800",
        get: { $0.expires }, set: { $0.expires = $1 > 0 ? $1 : nil }, reset: { $0.expires = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "exp takes one Unix time in seconds, as in exp:4102444800") { text in
                // Any 64-bit time, as imgproxy takes it (the year 3000 is 32503669200).
                let bytes = text.utf8
                guard bytes.count <= 19,
                    bytes.dropFirst(bytes.first == UInt8(ascii: "-") ? 1 : 0).allSatisfy(ASCII.isDigit)
                else { return nil }
                return Int(text)
            }
        },
        spell: { time, output in output.appendArgument(time) }
    )

    static let filename = ThumbnailOption(
        name: "fn", longName: "filename", syntax: "{name}[:{1}]",
        summary: "the file name in `Content-Disposition` (the result's extension is added): up to 128 letters, "
            + "digits, `.`, `_`, `~` or `-`; with `:1`, any UTF-8 name given in base64url",
        example: "fn:cat-portrait",
        get: { $0.filename }, set: { $0.filename = $1 }, reset: { $0.filename = nil },
        parse: { arguments, _ throws(ServiceError) in try parseFilename(arguments) },
        spell: { name, output in
            let bytes = name.utf8
            if bytes.allSatisfy(ASCII.isUnreserved) {
                output.appendArgument(name)
            } else {
                output.appendArgument(Base64URL.encode(bytes))
                output.appendArgument("1")
            }
        }
    )

    static let returnAttachment = ThumbnailOption(
        name: "att", longName: "return_attachment", syntax: "{1|0}",
        summary: "`1`: `Content-Disposition: attachment` (browsers save the file); `0`, the default: `inline`",
        example: "att:1",
        get: { $0.returnsAttachment }, set: { $0.returnsAttachment = $1 ? true : nil },
        reset: { $0.returnsAttachment = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "att takes 1 or 0, as in att:1") { flag($0) }
        },
        spell: { _, output in output.appendArgument("1") }
    )

    static let formatQuality = ThumbnailOption(
        name: "fq", longName: "format_quality", syntax: "{jpeg|webp|avif}:{1…100}[:{format}:{q}[:{format}:{q}]]",
        summary: "the quality for results in one format, over `q` (e.g. AVIF lower than JPEG for the same look); "
            + "as in imgproxy, each `fq` sets the formats it names and keeps the others', and a quality left empty is "
            + "that format's default again",
        example: "fq:jpeg:80:avif:50",
        get: { $0.formatQualities },
        set: { options, qualities in
            var merged = options.formatQualities ?? [:]
            // A quality of 0 is one left empty: the format's default again.
            for (format, quality) in qualities { merged[format] = quality == 0 ? nil : quality }
            options.formatQualities = merged.isEmpty ? nil : merged
        },
        reset: { $0.formatQualities = nil },
        parse: { arguments, _ throws(ServiceError) in
            let usage =
                "fq takes pairs of a format (jpeg, webp, avif) and a quality from 1 to 100, as in fq:jpeg:80:avif:50"
            guard arguments.count >= 2, arguments.count % 2 == 0 else { throw .badOptions(usage) }
            // 0: the format's quality left empty, its default again.
            var qualities: [OutputFormat: Int] = [:]
            for pair in stride(from: 0, to: arguments.count, by: 2) {
                guard let format = OutputFormat(name: arguments[pair]), format.defaultQuality != nil,
                    qualities[format] == nil
                else { throw .badOptions(usage + ", each format once") }
                guard !arguments[pair + 1].isEmpty else {
                    qualities[format] = 0
                    continue
                }
                guard let quality = OptionNumber.integer(arguments[pair + 1]), (1...100).contains(quality) else {
                    throw .badOptions(usage)
                }
                qualities[format] = quality
            }
            return qualities
        },
        spell: { qualities, output in
            for format in OutputFormat.allCases {
                guard let quality = qualities[format] else { continue }
                output.appendArgument(format.rawValue)
                output.appendArgument(quality)
            }
        }
    )

    static let maximumBytes = ThumbnailOption(
        name: "mb", longName: "max_bytes", syntax: "{bytes}",
        summary: "a JPEG, WebP or AVIF result over this size is encoded again at lower qualities (at most "
            + "\(ThumbnailPlan.Encoding.maximumBytesSearchSteps) more encodes): the highest quality found that fits, "
            + "else the smallest made; PNG is not changed",
        example: "mb:20000",
        get: { $0.maximumBytes }, set: { $0.maximumBytes = $1 == 0 ? nil : $1 }, reset: { $0.maximumBytes = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "mb takes one size in bytes, as in mb:20000") {
                OptionNumber.integer($0).flatMap { $0 >= 0 ? $0 : nil }
            }
        },
        spell: { bytes, output in output.appendArgument(bytes) }
    )

    /// The longest file name `fn` takes, in bytes.
    static let maximumFilenameBytes = 128

    private static func parseFilename(_ arguments: OptionArguments) throws(ServiceError) -> String {
        let usage =
            "fn takes a name of up to \(maximumFilenameBytes) letters, digits, ., _, ~ or -, or a base64url "
            + "UTF-8 name and 1, as in fn:cat or fn:0LrQvtGC:1"
        guard arguments.count == 1 || (arguments.count == 2 && arguments[1] == "1") else { throw .badOptions(usage) }
        let given = arguments[0]
        guard arguments.count == 2 else {
            let bytes = given.utf8
            guard (1...maximumFilenameBytes).contains(bytes.count), bytes.allSatisfy(ASCII.isUnreserved) else {
                throw .badOptions(usage)
            }
            return given
        }
        // Quotes, backslashes and control bytes could break out of the header's quoted string.
        guard let bytes = Base64URL.decode(given), (1...maximumFilenameBytes).contains(bytes.count),
            !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }),
            let name = String(validating: bytes, as: UTF8.self)
        else {
            throw .badOptions(
                "fn's base64url name must decode to 1 to \(maximumFilenameBytes) bytes of UTF-8 "
                    + "without quotes, backslashes or control characters")
        }
        return name
    }
}
