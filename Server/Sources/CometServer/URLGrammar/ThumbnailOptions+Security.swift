import Comet

/// imgproxy's security options: each lowers one of the server's limits for one request, and a
/// server takes them only when it allows them (`--allow-security-options`, else `403`). A URL
/// can never raise a limit above the server's: the lower of the two applies (imgproxy lets a URL
/// raise them; a signed URL is trusted there, but here one leaked URL would then lift the
/// server's protection). Each is part of the result's key.
extension ThumbnailOptions {
    static let maximumSourceResolution = ThumbnailOption(
        name: "msr", longName: "max_src_resolution", syntax: "{megapixels}",
        summary: "a security option: the most megapixels the source may declare, under the server's "
            + "`--max-source-pixels` (the lower applies; more is a 422, as in imgproxy)",
        example: "msr:12.5",
        get: { $0.maximumSourceResolution }, set: { $0.maximumSourceResolution = $1 },
        reset: { $0.maximumSourceResolution = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "msr takes one number of megapixels (0 or more), as in msr:12.5") {
                OptionNumber.decimal($0).flatMap { (0...maximumMegapixels).contains($0) ? $0 : nil }
            }
        },
        spell: { megapixels, output in output.appendArgument(megapixels) }
    )

    static let maximumSourceFileSize = ThumbnailOption(
        name: "msfs", longName: "max_src_file_size", syntax: "{bytes}",
        summary: "a security option: the most bytes the source may have, under the server's `--max-source-bytes` "
            + "(the lower applies; more is a 422, as in imgproxy); `0`: the server's, as imgproxy reads it",
        example: "msfs:1048576",
        get: { $0.maximumSourceFileSize }, set: { $0.maximumSourceFileSize = $1 == 0 ? nil : $1 },
        reset: { $0.maximumSourceFileSize = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "msfs takes one number of bytes (0 or more), as in msfs:1048576") {
                nonNegativeInteger($0)
            }
        },
        spell: { bytes, output in output.appendArgument(bytes) }
    )

    static let maximumAnimationFrames = ThumbnailOption(
        name: "maf", longName: "max_animation_frames", syntax: "{frames}",
        summary: "a security option: the most frames an animated source may have to stay animated, under the "
            + "server's `--max-animation-frames` (the lower applies; `1` keeps none: the first frame; more is a 422, "
            + "where imgproxy keeps the first frames)",
        example: "maf:10",
        get: { $0.maximumAnimationFrames }, set: { $0.maximumAnimationFrames = $1 },
        reset: { $0.maximumAnimationFrames = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "maf takes one number of frames above 0, as in maf:10") {
                nonNegativeInteger($0).flatMap { $0 > 0 ? $0 : nil }
            }
        },
        spell: { frames, output in output.appendArgument(frames) }
    )

    static let maximumAnimationFrameResolution = ThumbnailOption(
        name: "mafr", longName: "max_animation_frame_resolution", syntax: "{megapixels}",
        summary: "a security option: the most megapixels one frame of an animated source that stays animated may "
            + "have (more is a 422); `0`: no such limit, as imgproxy reads it (the server's `--max-source-pixels` "
            + "and `--max-animation-pixels` still apply)",
        example: "mafr:0.5",
        get: { $0.maximumAnimationFrameResolution },
        set: { $0.maximumAnimationFrameResolution = $1 == 0 ? nil : $1 },
        reset: { $0.maximumAnimationFrameResolution = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "mafr takes one number of megapixels (0 or more), as in mafr:0.5") {
                OptionNumber.decimal($0).flatMap { (0...maximumMegapixels).contains($0) ? $0 : nil }
            }
        },
        spell: { megapixels, output in output.appendArgument(megapixels) }
    )

    static let maximumResultDimension = ThumbnailOption(
        name: "mrd", longName: "max_result_dimension", syntax: "{pixels}",
        summary: "a security option: a result with a longer side is scaled down to it, aspect kept, after "
            + "everything else (imgproxy scales before the padding and the extension: the same size); `0`: none",
        example: "mrd:1000",
        get: { $0.maximumResultDimension }, set: { $0.maximumResultDimension = $1 == 0 ? nil : $1 },
        reset: { $0.maximumResultDimension = nil },
        parse: { arguments, _ throws(ServiceError) in
            try single(arguments, usage: "mrd takes one number of pixels (0 or more), as in mrd:1000") {
                nonNegativeInteger($0)
            }
        },
        spell: { pixels, output in output.appendArgument(pixels) }
    )

    /// The largest number of megapixels `msr` and `mafr` take: past the 65 535-pixel sides any
    /// decoder allows, a limit limits nothing.
    static let maximumMegapixels = 5_000.0

    /// A whole number from 0 (plain digits, at most 18 of them), or `nil`.
    static func nonNegativeInteger(_ text: String) -> Int? {
        let bytes = text.utf8
        guard (1...18).contains(bytes.count), bytes.allSatisfy(ASCII.isDigit) else { return nil }
        return Int(text)
    }

    /// The source's limits of a request: the server's `configuration`, each lowered by these
    /// options' security options.
    public func sourceLimits(under configuration: ServerConfiguration) -> SourceLimits {
        func pixels(_ megapixels: Double?) -> Int? { megapixels.map { Int(($0 * 1_000_000).rounded()) } }
        let server = SourceLimits(configuration)
        var limits = server
        limits.maximumBytes = min(server.maximumBytes, maximumSourceFileSize ?? .max)
        limits.maximumPixels = min(server.maximumPixels, pixels(maximumSourceResolution) ?? .max)
        limits.maximumAnimationFrames = min(server.maximumAnimationFrames, maximumAnimationFrames ?? .max)
        limits.maximumAnimationFramePixels = pixels(maximumAnimationFrameResolution)
        limits.checksBeforeDecoding =
            limits.maximumBytes < server.maximumBytes || limits.maximumPixels < server.maximumPixels
        return limits
    }
}
