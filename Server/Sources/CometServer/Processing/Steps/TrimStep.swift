import Comet

/// The source's border trimmed off (`t`), before anything else touches its pixels.
struct TrimStep: ThumbnailStep {
    var reads: [ThumbnailOption] { [ThumbnailOptions.trim] }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        guard let trim = options.trim else { return }
        plan.add(
            SourceTrim(
                trim: ImageProcessors.Trim(
                    threshold: trim.threshold, color: trim.color, equalHorizontal: trim.equalHorizontal,
                    equalVertical: trim.equalVertical)))
    }
}
