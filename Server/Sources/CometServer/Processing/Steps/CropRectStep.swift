import Comet

/// A rectangle of source pixels cut out (`cr`, Comet's own).
struct CropRectStep: ThumbnailStep {
    var reads: [ThumbnailOption] { [ThumbnailOptions.cropRect] }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        guard let rect = options.cropRect else { return }
        plan.add(ImageProcessors.Crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height))
    }
}
