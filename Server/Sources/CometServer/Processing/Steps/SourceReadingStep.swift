/// How the source is read (`ar`, `skp`, `eth`, `scp`): its EXIF orientation applied or not,
/// the formats passed through unprocessed, the embedded EXIF thumbnail, the colour profile
/// kept or converted to sRGB. Adds no operation.
struct SourceReadingStep: ThumbnailStep {
    var reads: [ThumbnailOption] {
        [
            ThumbnailOptions.autoRotate, ThumbnailOptions.skipProcessing, ThumbnailOptions.enforceThumbnail,
            ThumbnailOptions.stripColorProfile,
        ]
    }

    func add(_ options: ThumbnailOptions, to plan: inout ThumbnailPlan) {
        plan.appliesOrientation = options.autoRotates != false
        plan.skippedSourceFormats = options.skippedSourceFormats ?? []
        plan.enforcesThumbnail = options.enforcesThumbnail == true
        plan.keepsColorProfile = options.stripsColorProfile == false
    }
}
