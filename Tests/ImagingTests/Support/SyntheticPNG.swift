import Foundation
@testable import Imaging

/// PNG files the tests write byte by byte, independently of libpng: 8-bit grey, grey + alpha,
/// RGB or RGBA, plain or Adam7-interlaced, every row with another of the five filters (row `n`
/// uses filter `n % 5`), the image data in stored (uncompressed) deflate blocks. They let the
/// suite check interlacing and unfiltering without PngSuite.
enum SyntheticPNG {
    /// The colour types written (all at 8 bits per sample).
    enum ColorType: UInt8, CaseIterable, CustomStringConvertible {
        case gray = 0, rgb = 2, grayAlpha = 4, rgba = 6

        var samplesPerPixel: Int {
            switch self {
            case .gray: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }

        var hasAlpha: Bool { self == .grayAlpha || self == .rgba }

        var description: String {
            switch self {
            case .gray: "grey"
            case .grayAlpha: "grey+alpha"
            case .rgb: "RGB"
            case .rgba: "RGBA"
            }
        }
    }

    /// The Adam7 passes: first column, first row, column step, row step.
    static let adam7 = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// `image` as the colour type can hold it: grey takes the red channel, no alpha means opaque.
    /// A decoder must give back exactly this.
    static func representable(_ image: Image, as colorType: ColorType) -> Image {
        var bytes = image.packedBytes
        for i in stride(from: 0, to: bytes.count, by: 4) {
            if colorType == .gray || colorType == .grayAlpha { bytes[i + 1] = bytes[i]; bytes[i + 2] = bytes[i] }
            if !colorType.hasAlpha { bytes[i + 3] = 255 }
        }
        return Image(width: image.width, height: image.height, isOpaque: !colorType.hasAlpha, bytes: bytes)
    }

    /// A PNG of `image` (straight alpha) in `colorType`, Adam7-interlaced when `interlaced`.
    static func encode(_ image: Image, colorType: ColorType, interlaced: Bool) -> Data {
        let pixels = image.packedBytes
        func samples(x: Int, y: Int) -> [UInt8] {
            let i = (y * image.width + x) * 4
            switch colorType {
            case .gray: return [pixels[i]]
            case .grayAlpha: return [pixels[i], pixels[i + 3]]
            case .rgb: return [pixels[i], pixels[i + 1], pixels[i + 2]]
            case .rgba: return Array(pixels[i..<i + 4])
            }
        }
        var raw: [UInt8] = []
        var rowNumber = 0
        let passes = interlaced ? adam7 : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            let columns = Array(stride(from: x0, to: image.width, by: dx))
            guard !columns.isEmpty else { continue }
            var previous = [UInt8](repeating: 0, count: columns.count * colorType.samplesPerPixel)
            for y in stride(from: y0, to: image.height, by: dy) {
                let row = columns.flatMap { samples(x: $0, y: y) }
                let filter = UInt8(rowNumber % 5)
                raw.append(filter)
                raw += filtered(row, previous: previous, filter: filter, bytesPerPixel: colorType.samplesPerPixel)
                previous = row
                rowNumber += 1
            }
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(image.width)) + bigEndian(UInt32(image.height))
        header += [8, colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header) + chunk("IDAT", storedZlib(raw)) + chunk("IEND", [])
        return Data(png)
    }

    /// `row` filtered with PNG filter `filter` (0 none, 1 sub, 2 up, 3 average, 4 Paeth).
    static func filtered(_ row: [UInt8], previous: [UInt8], filter: UInt8, bytesPerPixel bpp: Int) -> [UInt8] {
        row.indices.map { i in
            let a = i >= bpp ? Int(row[i - bpp]) : 0
            let b = Int(previous[i])
            let c = i >= bpp ? Int(previous[i - bpp]) : 0
            let predictor: Int
            switch filter {
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: predictor = 0
            }
            return UInt8(truncatingIfNeeded: Int(row[i]) - predictor)
        }
    }

    /// A zlib stream of `bytes` in stored deflate blocks (no compression).
    static func storedZlib(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let isLast = offset + count == bytes.count
            out.append(isLast ? 1 : 0)
            let complement = 0xFFFF - count
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(complement & 0xFF), UInt8(complement >> 8)]
            out += bytes[offset..<offset + count]
            offset += count
        } while offset < bytes.count
        var (s1, s2): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            s1 = (s1 + UInt32(byte)) % 65_521
            s2 = (s2 + s1) % 65_521
        }
        return out + bigEndian(s2 << 16 | s1)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(CRC32.checksum(typeAndData))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
