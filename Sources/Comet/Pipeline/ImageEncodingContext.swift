/// What ``ImagePipeline/Configuration/makeImageEncoder`` chooses an encoder from.
public struct ImageEncodingContext: Sendable {
    /// The request whose result is stored.
    public let request: ImageRequest
    /// The image to encode.
    public let image: Image

    /// Creates a context.
    public init(request: ImageRequest, image: Image) {
        self.request = request
        self.image = image
    }
}
