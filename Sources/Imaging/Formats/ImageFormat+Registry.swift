extension ImageFormat {
    /// Every format Comet knows, in the order comet-server spells `skp`'s names and
    /// ``AssetType`` tries the signatures: the seven Comet decodes, then three it only
    /// recognises, so that an error can name them.
    public static let all: [ImageFormat] = [jpeg, png, webp, avif, gif, heic, jpegXL, bmp, tiff, ico]

    /// The HEIF brands that name no format of their own: a file whose `ftyp` names one as its
    /// major brand is HEIC, unless a compatible brand names another format (an AVIF file may
    /// begin so).
    public static let structuralISOBrands: Set<String> = ["mif1", "msf1"]

    /// JPEG (libjpeg-turbo): opaque, grey or colour; quality 0.85 by default.
    public static let jpeg = ImageFormat(
        type: .jpeg, name: "JPEG", mimeType: "image/jpeg", fileExtensions: ["jpg", "jpeg"],
        supportsAlpha: false, supportsAnimation: false, supportsGrey: true, defaultQuality: 0.85,
        isDecoded: true, isEncoded: true, signatures: [Signature(.init([0xFF, 0xD8, 0xFF]))], isoBrands: [])

    /// PNG (libpng): lossless, with alpha and grey; animated PNG is read as its first image.
    public static let png = ImageFormat(
        type: .png, name: "PNG", mimeType: "image/png", fileExtensions: ["png"],
        supportsAlpha: true, supportsAnimation: false, supportsGrey: true, defaultQuality: nil,
        isDecoded: true, isEncoded: true,
        signatures: [Signature(.init([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))], isoBrands: [])

    /// WebP (libwebp): lossy (quality 0.8 by default) or lossless, with alpha and animations.
    public static let webp = ImageFormat(
        type: .webp, name: "WebP", mimeType: "image/webp", fileExtensions: ["webp"],
        supportsAlpha: true, supportsAnimation: true, supportsGrey: false, defaultQuality: 0.8,
        isDecoded: true, isEncoded: true, signatures: [Signature(.ascii("RIFF"), .ascii("WEBP", at: 8))],
        isoBrands: [])

    /// AVIF (libavif): with alpha and grey; quality 0.6 by default; a sequence is read as its
    /// first frame.
    public static let avif = ImageFormat(
        type: .avif, name: "AVIF", mimeType: "image/avif", fileExtensions: ["avif"],
        supportsAlpha: true, supportsAnimation: false, supportsGrey: true, defaultQuality: 0.6,
        isDecoded: true, isEncoded: true, signatures: [], isoBrands: ["avif", "avis"])

    /// GIF (giflib): a palette with one transparent entry; animations read and written.
    public static let gif = ImageFormat(
        type: .gif, name: "GIF", mimeType: "image/gif", fileExtensions: ["gif"],
        supportsAlpha: true, supportsAnimation: true, supportsGrey: false, defaultQuality: nil,
        isDecoded: true, isEncoded: true, signatures: [Signature(.ascii("GIF87a")), Signature(.ascii("GIF89a"))],
        isoBrands: [])

    /// HEIC (libheif): the primary still image, with alpha and grey; decoded only.
    public static let heic = ImageFormat(
        type: .heic, name: "HEIC", mimeType: "image/heic", fileExtensions: ["heic", "heif"],
        supportsAlpha: true, supportsAnimation: false, supportsGrey: true, defaultQuality: nil,
        isDecoded: true, isEncoded: false, signatures: [],
        isoBrands: ["heic", "heix", "heim", "heis", "hevc", "hevx"])

    /// JPEG XL (libjxl): a bare codestream or a container, with alpha and grey; decoded only, an
    /// animation as its first frame.
    public static let jpegXL = ImageFormat(
        type: .jpegXL, name: "JPEG XL", mimeType: "image/jxl", fileExtensions: ["jxl"],
        supportsAlpha: true, supportsAnimation: false, supportsGrey: true, defaultQuality: nil,
        isDecoded: true, isEncoded: false,
        signatures: [
            Signature(.init([0xFF, 0x0A])), Signature(.init([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20])),
        ],
        isoBrands: [])

    /// BMP: recognised, not decoded.
    public static let bmp = ImageFormat(
        type: .bmp, name: "BMP", mimeType: "image/bmp", fileExtensions: ["bmp"],
        supportsAlpha: true, supportsAnimation: false, supportsGrey: false, defaultQuality: nil,
        isDecoded: false, isEncoded: false, signatures: [Signature(.ascii("BM"), minimumLength: 14)], isoBrands: [])

    /// TIFF: recognised, not decoded.
    public static let tiff = ImageFormat(
        type: .tiff, name: "TIFF", mimeType: "image/tiff", fileExtensions: ["tiff", "tif"],
        supportsAlpha: true, supportsAnimation: false, supportsGrey: true, defaultQuality: nil,
        isDecoded: false, isEncoded: false,
        signatures: [Signature(.init([0x49, 0x49, 0x2A, 0x00])), Signature(.init([0x4D, 0x4D, 0x00, 0x2A]))],
        isoBrands: [])

    /// ICO: recognised, not decoded.
    public static let ico = ImageFormat(
        type: .ico, name: "ICO", mimeType: "image/vnd.microsoft.icon", fileExtensions: ["ico"],
        supportsAlpha: true, supportsAnimation: false, supportsGrey: false, defaultQuality: nil,
        isDecoded: false, isEncoded: false, signatures: [Signature(.init([0x00, 0x00, 0x01, 0x00]))], isoBrands: [])
}
