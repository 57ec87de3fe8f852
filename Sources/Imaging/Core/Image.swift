import Foundation

/// A decoded bitmap: width × height pixels of four 8-bit channels (see ``PixelFormat``).
///
/// `Image` is a value: cheap to copy and pass between threads (it is `Sendable`), because the
/// pixels live in one immutable heap block that copies share. Nothing mutates an image's pixels
/// after creation; processors create new images. Views such as ``cropped(x:y:width:height:)``
/// share the block too, which is why ``bytesPerRow`` may exceed `width * 4`.
public struct Image: Sendable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// What the four channels of each pixel mean.
    public let pixelFormat: PixelFormat
    /// Distance in bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// `true` when every pixel is known to be opaque (alpha 255), e.g. every JPEG. Processors
    /// use it to skip alpha work; `false` means "may have transparency", not "has".
    public let isOpaque: Bool
    /// What the numbers mean: `nil` for sRGB (every image decoded with the default options, and
    /// every generated one), otherwise the profile of a file decoded with
    /// ``ImageDecodingOptions/keepsOriginalColors``. Encoders embed it; processors work on the
    /// numbers and the pipeline carries the profile over to their results.
    public var colorProfile: ColorProfile?
    /// `true` when every pixel is known to be grey (red = green = blue), e.g. an image decoded
    /// from a grey PNG. A hint for the encoders that can write grey (PNG, with a third of the
    /// samples of RGB): ``ImageEncoders/png(_:compressionLevel:)`` checks the pixels before it
    /// trusts it, stopping at the first that is not grey, so a wrong `true` costs that scan, never
    /// a colour. `false` (the default) means "may have colour", not "has". Crops, resizes,
    /// rotations, flips, ``applying(_:)`` and format conversions carry it over,
    /// ``ImageProcessors/Grayscale`` sets it; other processors' results have it `false`.
    public var isGray = false
    /// Set by the JPEG decoder on a DCT-scaled decode (see ``DecodeReduction``); `nil` on every
    /// other image, and dropped by crops and by every processor (their results are new images).
    var decodeReduction: DecodeReduction?

    let storage: PixelStorage
    let byteOffset: Int

    /// The memory the pixels keep alive, in bytes: what caches count.
    public var cost: Int { storage.byteCount }

    /// Creates an image and lets `body` write its pixels once.
    ///
    /// `body` receives the whole pixel block, `height` rows of `width * 4` bytes, uninitialised;
    /// it must write every byte. Throws what `body` throws; the block is freed on error.
    /// - Precondition: `width` and `height` are at least 1.
    public init<E: Error>(
        width: Int,
        height: Int,
        pixelFormat: PixelFormat = .rgba8,
        isOpaque: Bool = false,
        initializingPixelsWith body: (_ pixels: UnsafeMutableRawBufferPointer, _ bytesPerRow: Int) throws(E) -> Void
    ) throws(E) {
        precondition(width > 0 && height > 0, "an image has at least one pixel (got \(width)×\(height))")
        let bytesPerRow = width * pixelFormat.bytesPerPixel
        let (byteCount, overflow) = bytesPerRow.multipliedReportingOverflow(by: height)
        precondition(!overflow, "image dimensions overflow: \(width)×\(height)")
        let storage = PixelStorage(byteCount: byteCount)
        try body(UnsafeMutableRawBufferPointer(start: storage.base, count: byteCount), bytesPerRow)
        self.init(
            width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: bytesPerRow,
            isOpaque: isOpaque, storage: storage, byteOffset: 0)
    }

    /// Creates an image from tightly packed pixel bytes (`width * height * 4` of them).
    /// - Precondition: `bytes.count == width * height * 4`.
    public init(width: Int, height: Int, pixelFormat: PixelFormat = .rgba8, isOpaque: Bool = false, bytes: [UInt8]) {
        precondition(
            bytes.count == width * height * pixelFormat.bytesPerPixel,
            "expected \(width * height * pixelFormat.bytesPerPixel) bytes, got \(bytes.count)")
        self.init(width: width, height: height, pixelFormat: pixelFormat, isOpaque: isOpaque) { pixels, _ in
            bytes.withUnsafeBytes { pixels.copyMemory(from: $0) }
        }
    }

    /// Creates an image of one colour. `isOpaque` follows the colour's alpha.
    public init(width: Int, height: Int, color: RGBA8, pixelFormat: PixelFormat = .rgba8) {
        let stored = pixelFormat == .rgba8Premultiplied ? color.premultiplied : color
        self.init(width: width, height: height, pixelFormat: pixelFormat, isOpaque: color.alpha == 255) { pixels, _ in
            let word =
                UInt32(stored.red) | UInt32(stored.green) << 8 | UInt32(stored.blue) << 16 | UInt32(stored.alpha) << 24
            pixels.bindMemory(to: UInt32.self).initialize(repeating: UInt32(littleEndian: word))
        }
    }

    init(
        width: Int, height: Int, pixelFormat: PixelFormat, bytesPerRow: Int, isOpaque: Bool,
        storage: PixelStorage, byteOffset: Int
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.bytesPerRow = bytesPerRow
        self.isOpaque = isOpaque
        self.storage = storage
        self.byteOffset = byteOffset
    }

    /// Calls `body` with the pixel bytes: `height` rows, each starting `bytesPerRow` after the
    /// previous one and `width * 4` bytes long. The pointer is valid only inside `body`.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let count = bytesPerRow * (height - 1) + width * pixelFormat.bytesPerPixel
        return try body(UnsafeRawBufferPointer(start: storage.base + byteOffset, count: count))
    }

    /// The pixel at column `x`, row `y` (0-based, from the top left), as stored.
    /// - Precondition: the coordinates are inside the image.
    public func pixel(x: Int, y: Int) -> RGBA8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let p = storage.base + byteOffset + y * bytesPerRow + x * 4
        let b = p.assumingMemoryBound(to: UInt8.self)
        return RGBA8(red: b[0], green: b[1], blue: b[2], alpha: b[3])
    }

    /// The pixels as tightly packed bytes (rows without padding): a copy, for tests and export.
    public var packedBytes: [UInt8] {
        let rowLength = width * pixelFormat.bytesPerPixel
        return [UInt8](unsafeUninitializedCapacity: rowLength * height) { buffer, count in
            withUnsafeBytes { source in
                for y in 0..<height {
                    memcpy(buffer.baseAddress! + y * rowLength, source.baseAddress! + y * bytesPerRow, rowLength)
                }
            }
            count = rowLength * height
        }
    }

    /// A view of a rectangle of this image that shares its pixels (no copy).
    /// - Precondition: the rectangle is non-empty and inside the image.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> Image {
        precondition(
            width > 0 && height > 0 && x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height,
            "crop (\(x), \(y), \(width)×\(height)) outside \(self.width)×\(self.height)")
        var view = Image(
            width: width, height: height, pixelFormat: pixelFormat, bytesPerRow: bytesPerRow, isOpaque: isOpaque,
            storage: storage, byteOffset: byteOffset + y * bytesPerRow + x * pixelFormat.bytesPerPixel)
        view.colorProfile = colorProfile
        view.isGray = isGray
        return view
    }

    /// This image with `profile` as its ``colorProfile`` (the pixels are shared, not converted).
    public func withColorProfile(_ profile: ColorProfile?) -> Image {
        var image = self
        image.colorProfile = profile
        return image
    }
}

extension Image: Equatable {
    /// Two images are equal when they have the same size, format, colour profile and pixel bytes
    /// (an O(pixels) comparison; views and copies of the same pixels compare equal). The
    /// ``isGray`` hint is not compared: it says nothing the pixels do not.
    public static func == (lhs: Image, rhs: Image) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.pixelFormat == rhs.pixelFormat,
            lhs.colorProfile == rhs.colorProfile
        else { return false }
        if lhs.storage === rhs.storage && lhs.byteOffset == rhs.byteOffset && lhs.bytesPerRow == rhs.bytesPerRow {
            return true
        }
        let rowLength = lhs.width * lhs.pixelFormat.bytesPerPixel
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                for y in 0..<lhs.height
                where memcmp(a.baseAddress! + y * lhs.bytesPerRow, b.baseAddress! + y * rhs.bytesPerRow, rowLength) != 0
                {
                    return false
                }
                return true
            }
        }
    }
}

extension Image: CustomStringConvertible {
    public var description: String {
        "Image(\(width)×\(height), \(pixelFormat)\(isOpaque ? ", opaque" : "")\(colorProfile.map { ", \($0.name)" } ?? ""))"
    }
}
