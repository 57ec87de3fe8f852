import Comet

/// The source turned clockwise by 90, 180 or 270 degrees (`rot`).
struct RotateStep: ThumbnailStep {
    var reads: [ThumbnailOption] { [ThumbnailOptions.rotate] }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        guard let degrees = options.rotation else { return }
        plan.add(ImageProcessors.Rotate(degrees: degrees))
    }
}
