/// How ``ImagePipeline/loadImage(with:options:into:completion:)-(ImageRequest,_,_,_)`` presents
/// a load in its target.
public struct ImageLoadingOptions: Sendable {
    /// Shows an image that replaces the target's current one: called with the target, the image
    /// Comet last displayed in it (`old`, usually the placeholder) and the `new` one. It must
    /// display `new` itself (for example with a cross-fade, then `target.display(new,
    /// isPreview: false)`).
    public typealias Transition = @Sendable (_ target: any ImageDisplaying, _ old: Image?, _ new: Image) -> Void

    /// Displayed when a load starts (not on a memory-cache hit). `nil` (the default) clears the
    /// target, so a reused target never shows its previous image.
    public var placeholder: Image?
    /// Displayed when the load fails (not when it is cancelled). `nil` (the default) leaves the
    /// placeholder.
    public var failureImage: Image?
    /// Display progressive previews as they arrive (when the pipeline's
    /// ``ImagePipeline/Configuration/isProgressiveDecodingEnabled`` is on). Default `true`.
    public var showsPreviews: Bool
    /// Used instead of ``ImageDisplaying/display(_:isPreview:)`` for the final image and the
    /// failure image of a load (not for a memory-cache hit, the placeholder or previews, which
    /// are displayed at once). Default `nil`: display directly.
    public var transition: Transition?

    /// Creates options; every parameter has the default described on its property.
    public init(
        placeholder: Image? = nil, failureImage: Image? = nil, showsPreviews: Bool = true,
        transition: Transition? = nil
    ) {
        self.placeholder = placeholder
        self.failureImage = failureImage
        self.showsPreviews = showsPreviews
        self.transition = transition
    }
}
