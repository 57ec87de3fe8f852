import Comet

/// The source mirrored horizontally, vertically or both (`fl`).
struct FlipStep: ThumbnailStep {
    var reads: [ThumbnailOption] { [ThumbnailOptions.flip] }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        guard let flip = options.flip else { return }
        plan.add(ImageProcessors.Flip(horizontal: flip.horizontal, vertical: flip.vertical))
    }
}
