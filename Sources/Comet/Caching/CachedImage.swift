/// What a memory cache stores: a decoded image and whether it is a progressive preview.
///
/// The pipeline stores final images with `isPreview == false`; it may store a progressive preview
/// under the same key while the final image is still loading (Nuke does the same with
/// `ImageContainer.isPreview`), and it replaces the preview once the final image arrives. A reader
/// that needs the final image checks ``isPreview``. A `Sendable` value.
public struct CachedImage: Sendable {
    /// The decoded image.
    public var image: Image
    /// `true` for a preview of an image that is still loading (e.g. a progressive JPEG scan).
    public var isPreview: Bool
    /// Every frame of an animated image, for requests with
    /// ``ImageRequest/Options/decodeAnimation``; `nil` otherwise.
    public var animation: AnimatedImage?

    /// A cache entry for `image`; a final image unless `isPreview` says otherwise.
    public init(image: Image, isPreview: Bool = false, animation: AnimatedImage? = nil) {
        self.image = image
        self.isPreview = isPreview
        self.animation = animation
    }

    /// What the entry counts against a cache's cost limit: the image's pixel memory in bytes
    /// (every frame's, and the encoded data, for an animation).
    public var cost: Int { animation?.cost ?? image.cost }
}
