/// How the result is written (`q`, `fq`, `mb`, `f`, `bg`): the encoder's settings
/// (``ThumbnailPlan/Encoding``). Adds no operation; `bg` is also the colour the extensions and
/// the padding fill.
struct EncodingStep: ThumbnailStep {
    var reads: [ThumbnailOption] {
        [
            ThumbnailOptions.quality, ThumbnailOptions.formatQuality, ThumbnailOptions.maximumBytes,
            ThumbnailOptions.format, ThumbnailOptions.background,
        ]
    }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        plan.encoding.quality = options.quality
        plan.encoding.formatQualities = options.formatQualities ?? [:]
        plan.encoding.maximumBytes = options.maximumBytes
        plan.encoding.format = options.format
        plan.encoding.background = options.background
    }
}
