/// imgproxy's `crop` (`c`): an area of the source cut out before the resize, placed by its own
/// gravity or, without one, by `g`'s.
struct CropStep: ThumbnailStep {
    var reads: [ThumbnailOption] { [ThumbnailOptions.cropArea, ThumbnailOptions.gravity] }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        guard let area = options.cropArea else { return }
        plan.add(SourceAreaCrop(area: area, defaultGravity: options.gravity ?? .center))
    }
}
