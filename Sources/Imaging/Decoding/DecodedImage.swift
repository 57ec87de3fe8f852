/// What a decoder returns: the image and what it learned on the way.
public struct DecodedImage: Sendable {
    /// The decoded bitmap (straight-alpha ``PixelFormat/rgba8``), upright unless
    /// ``ImageDecodingOptions/appliesOrientation`` was `false`.
    public var image: Image
    /// The format the data was in.
    public var type: AssetType
    /// Width the file declares (before downsampling and orientation).
    public var sourceWidth: Int
    /// Height the file declares (before downsampling and orientation).
    public var sourceHeight: Int
    /// The EXIF orientation the file declares (`.up` when none).
    public var orientation: ImageOrientation
    /// Problems the decoder worked around (libjpeg's "corrupt data", "premature end of file";
    /// libpng's benign errors). Empty for a clean decode. A non-empty list means the pixels may
    /// be partly made up: show them if you must, never cache them.
    public var warnings: [String]
    /// Every frame of an animated file, when ``ImageDecodingOptions/decodesAnimation`` asked for
    /// them; `nil` for still images and by default. ``image`` is then the first frame.
    public var animation: AnimatedImage?

    /// `true` when the decoder reported no problem: the image is exactly what the file encodes.
    public var isClean: Bool { warnings.isEmpty }

    /// Creates a result (decoders do; public for custom ``ImageDecoding`` implementations).
    public init(
        image: Image, type: AssetType, sourceWidth: Int, sourceHeight: Int,
        orientation: ImageOrientation = .up, warnings: [String] = [], animation: AnimatedImage? = nil
    ) {
        self.animation = animation
        self.image = image
        self.type = type
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.orientation = orientation
        self.warnings = warnings
    }
}
