import Comet

/// The filters on the resized result, in this order: blur (`bl`), sharpen (`sh`), pixelate
/// (`pix`), grey (`grayscale`), brightness, contrast.
struct FiltersStep: ThumbnailStep {
    var reads: [ThumbnailOption] {
        [
            ThumbnailOptions.blur, ThumbnailOptions.sharpen, ThumbnailOptions.pixelate, ThumbnailOptions.grayscale,
            ThumbnailOptions.brightness, ThumbnailOptions.contrast,
        ]
    }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        if let sigma = options.blur { plan.add(ImageProcessors.GaussianBlur(radius: sigma)) }
        if let sigma = options.sharpen { plan.add(ImageProcessors.Sharpen(radius: sigma)) }
        if let size = options.pixelate { plan.add(ImageProcessors.Pixelate(size: size)) }
        if options.grayscale == true { plan.add(ImageProcessors.Grayscale()) }
        if let amount = options.brightness { plan.add(ImageProcessors.Brightness(amount: amount)) }
        if let amount = options.contrast { plan.add(ImageProcessors.Contrast(amount: amount)) }
    }
}
