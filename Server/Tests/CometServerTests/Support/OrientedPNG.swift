import Comet

/// PNGs that carry an EXIF orientation in an `eXIf` chunk, as imgproxy's `orientation-N.png`
/// test images do: the stored pixels are `width`×`height`, left half red, right half blue.
enum OrientedPNG {
    /// The PNG of `width`×`height` stored pixels whose `eXIf` declares `orientation` (1…8).
    static func make(width: Int, height: Int, orientation: UInt8) -> [UInt8] {
        let image = Image(width: width, height: height, isOpaque: true) { pixels, bytesPerRow in
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * bytesPerRow + x * 4
                    let left = x < width / 2
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (left ? 255 : 0, 0, left ? 0 : 255)
                    pixels[offset + 3] = 255
                }
            }
        }
        let png = [UInt8](try! ImageEncoders.png(image))
        // Big-endian TIFF: one IFD holding one entry, Orientation (0x0112), a SHORT.
        let exif: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ]
        // Right after IHDR: the signature (8 bytes) and IHDR's length, type, 13 bytes and CRC.
        let afterHeader = 8 + 4 + 4 + 13 + 4
        return Array(png[..<afterHeader]) + chunk("eXIf", exif) + Array(png[afterHeader...])
    }

    /// A PNG chunk: its length, type, data and CRC-32 (of the type and the data).
    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// PNG's CRC-32 (ISO 3309, the reflected polynomial 0xEDB88320).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
