/// Limits a decoder checks before it allocates anything image-sized, so that a small hostile
/// file that declares an enormous image fails fast, with a clear error, in little memory.
public struct ImageDecodingLimits: Sendable, Hashable {
    /// The largest width or height a file may declare. Default 65 535 (JPEG's own maximum).
    public var maxDimension: Int

    /// The largest declared pixel count (width × height of the file, before any downsampling).
    /// Default 2^29 (about 537 megapixels): bounds the work of decoding even at 1/8 scale.
    public var maxSourcePixelCount: Int

    /// The largest decoded bitmap, in pixels (after downsampling). Default 2^26 (about 67
    /// megapixels, 256 MiB of RGBA): an 8000×6000 photo decodes, a 20000×14000 one only as a
    /// thumbnail.
    public var maxPixelCount: Int

    /// The most working memory, in bytes, a decoder may allocate besides the bitmap.
    /// Progressive JPEGs keep coefficients for the whole image (about 2 bytes per sample) even
    /// when downsampling; libjpeg counts its allocations against this. The HEIC and JPEG XL
    /// decoders estimate what libheif or libjxl will allocate from the declared image and
    /// refuse it before decoding (``HEICDecoder``, ``JPEGXLDecoder``). Default 256 MiB.
    public var maxDecoderMemory: Int

    /// The most scans a progressive JPEG may have (a "scan bomb" repeats work per scan).
    /// Default 256; real encoders write about 10.
    public var maxScans: Int

    /// The most frames an animation (GIF, animated WebP) may have when its frames are decoded
    /// (``ImageDecodingOptions/decodesAnimation``). Default 4 096; counted from the file's
    /// structure before any frame is decoded.
    public var maxFrameCount: Int

    /// The most pixels all decoded frames of an animation may have together (frames × canvas
    /// width × height). Default 2^26 (256 MiB of RGBA, as ``maxPixelCount``).
    public var maxAnimationPixelCount: Int

    /// Creates limits; every parameter has the default documented on its property.
    public init(
        maxDimension: Int = 65_535,
        maxSourcePixelCount: Int = 1 << 29,
        maxPixelCount: Int = 1 << 26,
        maxDecoderMemory: Int = 256 << 20,
        maxScans: Int = 256,
        maxFrameCount: Int = 4_096,
        maxAnimationPixelCount: Int = 1 << 26
    ) {
        self.maxFrameCount = maxFrameCount
        self.maxAnimationPixelCount = maxAnimationPixelCount
        self.maxDimension = maxDimension
        self.maxSourcePixelCount = maxSourcePixelCount
        self.maxPixelCount = maxPixelCount
        self.maxDecoderMemory = maxDecoderMemory
        self.maxScans = maxScans
    }
}
