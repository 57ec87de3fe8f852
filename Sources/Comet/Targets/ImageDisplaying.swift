/// Something that shows images: a view, a layer, a cell's image slot, an in-memory canvas.
///
/// Conform any class to it and load into it with
/// ``ImagePipeline/loadImage(with:options:into:completion:)-(ImageRequest,_,_,_)``. Comet keeps
/// what each target is loading in a side table (weakly; no storage is needed on the target).
///
/// ## Threading
/// Calls for one target never overlap and arrive in order. The placeholder and a memory-cache
/// hit are displayed synchronously on the thread that called `loadImage(…into:)`; loaded images
/// (previews, the final image, the failure image) on the pipeline's
/// ``ImagePipeline/Configuration/callbackQueue`` — except that a display queued while another
/// display for the same target is running is made right after it, on that thread. Loading into a
/// target from the callback queue (for example `.main` in an app) keeps every call on it.
public protocol ImageDisplaying: AnyObject {
    /// Shows `image`; `nil` clears the target (a load without a placeholder starts that way).
    /// `isPreview` is `true` for a progressive preview (the final image follows).
    func display(_ image: Image?, isPreview: Bool)
}
