import Comet

extension ThumbnailRequest {
    /// What each frame of an animated source gets when the result keeps the animation
    /// (``keepsAnimation``), else `nil`: the plan of the options, with the steps that look at
    /// the pixels to decide the geometry left out, so every frame gets the same geometry. A
    /// trim (`t`) is not made, as imgproxy makes none on animations, and a smart gravity
    /// (`g:sm`, or `sm` in `c`) is the centre.
    public var framePlan: ThumbnailPlan? {
        guard keepsAnimation else { return nil }
        var options = options
        options.trim = nil
        if options.gravity == .smart { options.gravity = nil }
        if options.cropArea?.gravity == .smart { options.cropArea?.gravity = ImageProcessors.Gravity.center }
        return ThumbnailPlan(options, watermark: watermark)
    }
}
