/// Space added around the result (`pd`), its sides times the device pixel ratio the resize
/// honours, in `bg`.
struct PaddingStep: ThumbnailStep {
    var reads: [ThumbnailOption] { [ThumbnailOptions.padding] }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        guard let padding = options.padding else { return }
        plan.add(.pad(padding))
    }
}
