/// The result laid on a canvas of the resize's size (`ex`), then of its aspect ratio (`exar`),
/// each placed by its gravity, in `bg`; nothing without a resize.
struct ExtendStep: ThumbnailStep {
    var reads: [ThumbnailOption] { [ThumbnailOptions.extend, ThumbnailOptions.extendAspectRatio] }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        guard plan.requestedSize != nil else { return }
        if let gravity = options.extend { plan.add(.extend(toAspectRatio: false, gravity: gravity)) }
        if let gravity = options.extendAspectRatio { plan.add(.extend(toAspectRatio: true, gravity: gravity)) }
    }
}
