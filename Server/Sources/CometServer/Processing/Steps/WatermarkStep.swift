/// The server's watermark drawn over the result as `wm` asks (its pixel offsets times the
/// device pixel ratio the resize honours).
struct WatermarkStep: ThumbnailStep {
    var reads: [ThumbnailOption] { [ThumbnailOptions.watermark] }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        guard let watermark = options.watermark else { return }
        plan.add(.watermark(watermark))
    }
}
