import Comet

/// The result's longest side held to `mrd`: a larger result is scaled down to it, after every
/// other operation.
struct MaximumDimensionStep: ThumbnailStep {
    var reads: [ThumbnailOption] { [ThumbnailOptions.maximumResultDimension] }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        guard let side = options.maximumResultDimension else { return }
        plan.add(ImageProcessors.Resize(size: Size(width: side, height: side), contentMode: .aspectFit))
    }
}
