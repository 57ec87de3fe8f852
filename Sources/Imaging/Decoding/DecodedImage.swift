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
    /// What was done with the file's colour description: converted to sRGB (the default), kept
    /// (``ImageDecodingOptions/keepsOriginalColors``), nothing to do, or unusable.
    public var colorHandling: ColorHandling

    /// A problem with the file's colour description: why it could not be used (a malformed or
    /// mismatched profile; the numbers are then unconverted, ``ColorHandling/unusable(reason:)``)
    /// or what the codec library said about a colour chunk it ignored. `nil` when there was none.
    /// Unlike ``warnings`` it says nothing against the pixels, so it does not keep the image out
    /// of caches.
    public var colorWarning: String?

    /// `true` when the decoder reported no problem: the image is exactly what the file encodes.
    public var isClean: Bool { warnings.isEmpty }

    /// Creates a result (decoders do; public for custom ``ImageDecoding`` implementations).
    public init(
        image: Image, type: AssetType, sourceWidth: Int, sourceHeight: Int,
        orientation: ImageOrientation = .up, warnings: [String] = [], animation: AnimatedImage? = nil,
        colorHandling: ColorHandling = .untagged, colorWarning: String? = nil
    ) {
        self.animation = animation
        self.colorHandling = colorHandling
        if case .unusable(let reason) = colorHandling {
            self.colorWarning = colorWarning ?? reason
        } else {
            self.colorWarning = colorWarning
        }
        self.image = image
        self.type = type
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.orientation = orientation
        self.warnings = warnings
    }
}
