extension ThumbnailPlan {
    /// The thumbnail pipeline, in the order it runs; the one place the order is written.
    ///
    /// First how the source is read; then the operations on its pixels: the source trimmed,
    /// turned, mirrored and cropped, then resized, then the filters on the small result, its
    /// extensions, its padding, the watermark and the largest side; last how the result is
    /// written. The options no step reads are the delivery and security ones (they change the
    /// key, the checks or the headers) and those folded into another at parsing (`s`, `w`, `h`,
    /// `rt` into `rs`; `raw` into `skp`).
    static let steps: [any ThumbnailStep] = [
        SourceReadingStep(),
        TrimStep(),
        RotateStep(),
        FlipStep(),
        CropRectStep(),
        CropStep(),
        ResizeStep(),
        FiltersStep(),
        ExtendStep(),
        PaddingStep(),
        WatermarkStep(),
        MaximumDimensionStep(),
        EncodingStep(),
    ]
}
