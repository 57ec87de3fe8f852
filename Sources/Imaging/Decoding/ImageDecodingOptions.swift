/// How to decode: limits, decode-time downsampling, orientation, strictness.
public struct ImageDecodingOptions: Sendable, Hashable {
    /// What to reduce the image to while decoding, when the format allows it.
    public enum Downsampling: Sendable, Hashable {
        /// The longer side of the result is at least this many pixels (a thumbnail's max pixel size).
        case maxPixelSize(Int)
        /// The result is at least this wide and this high (what an aspect-fill resize needs).
        case covering(width: Int, height: Int)
    }

    /// Limits checked before allocation. See ``ImageDecodingLimits`` for the defaults.
    public var limits: ImageDecodingLimits

    /// `nil` (the default): decode at full size. Otherwise JPEGs decode at the smallest DCT scale
    /// (1/2, 1/4 or 1/8) whose result still satisfies the target, still WebPs at the smallest
    /// size that satisfies it (libwebp's scaler); PNGs, GIFs, AVIFs, HEICs, JPEG XLs and
    /// animations decode at full size (no cheaper reduced decode), so resize afterwards for an
    /// exact size. Sizes are in the upright (orientation-applied) frame.
    public var downsampling: Downsampling?

    /// Whether to apply the EXIF orientation of JPEGs and PNGs (their `eXIf` chunk; AVIF's
    /// `irot`/`imir`, JPEG XL's codestream orientation) so the image comes out upright. Default `true`; when `false` the orientation
    /// is still reported in ``DecodedImage``. HEIC images always come out upright (libheif applies
    /// their transformations; see ``HEICDecoder``).
    public var appliesOrientation: Bool

    /// When `true`, any decoder warning (corrupt data that libjpeg would conceal, a premature
    /// end of file) is an error. Default `false`: the image decodes and the warnings are
    /// reported in ``DecodedImage/warnings`` so callers (the pipeline's caches) can refuse it.
    public var isStrict: Bool

    /// When `true`, animated files (GIF, animated WebP) decode every frame into
    /// ``DecodedImage/animation`` (checked against ``ImageDecodingLimits/maxFrameCount`` and
    /// ``ImageDecodingLimits/maxAnimationPixelCount`` first). Default `false`: only the first
    /// frame is decoded.
    public var decodesAnimation: Bool

    /// Default `false`: an image whose file carries a colour description (an ICC profile; PNG's
    /// gAMA/cHRM; AVIF's CICP codes) is converted to sRGB while it decodes, so every ``Image``
    /// holds sRGB numbers. `true`: the file's RGB numbers are kept and the image carries the
    /// profile (``Image/colorProfile``), which the encoders embed again, so a round trip keeps
    /// the colour. Grey and CMYK sources convert either way (an ``Image`` is RGBA).
    /// ``DecodedImage/colorHandling`` says what was done.
    public var keepsOriginalColors: Bool

    /// Creates options; every parameter has the default documented on its property.
    public init(
        limits: ImageDecodingLimits = ImageDecodingLimits(),
        downsampling: Downsampling? = nil,
        appliesOrientation: Bool = true,
        isStrict: Bool = false,
        decodesAnimation: Bool = false,
        keepsOriginalColors: Bool = false
    ) {
        self.keepsOriginalColors = keepsOriginalColors
        self.decodesAnimation = decodesAnimation
        self.limits = limits
        self.downsampling = downsampling
        self.appliesOrientation = appliesOrientation
        self.isStrict = isStrict
    }
}
