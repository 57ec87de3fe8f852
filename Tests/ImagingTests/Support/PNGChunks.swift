import Foundation

/// Chunk surgery on PNG files for the tests: a chunk (with its CRC) put right after IHDR or
/// right before IEND, and the header's colour type and bit depth read back.
enum PNGChunks {
    /// Where a chunk goes: before the image data (after IHDR) or after it (before IEND).
    enum Place {
        case afterHeader, beforeEnd
    }

    /// The bytes of one chunk: length, type, data, and the CRC of type and data (or `crc`).
    static func chunk(_ type: String, _ data: [UInt8], crc: UInt32? = nil) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc ?? CRC32.checksum(typeAndData))
    }

    /// `png` with `chunk` (whole, from ``chunk(_:_:crc:)``) inserted at `place`.
    static func inserting(_ chunk: [UInt8], at place: Place, into png: Data) -> Data {
        var bytes = [UInt8](png)
        precondition(bytes.count > 33 && Array(bytes[12..<16]) == Array("IHDR".utf8), "not a PNG")
        let offset: Int
        switch place {
        case .afterHeader: offset = 8 + 25  // signature, IHDR (length, type, 13 bytes, CRC)
        case .beforeEnd: offset = bytes.count - 12  // IEND: length 0, type, CRC
        }
        precondition(place == .afterHeader || Array(bytes[(offset + 4)..<(offset + 8)]) == Array("IEND".utf8))
        bytes.insert(contentsOf: chunk, at: offset)
        return Data(bytes)
    }

    /// `png` with an eXIf chunk holding `exif` at `place`.
    static func insertingEXIf(_ exif: [UInt8], at place: Place = .afterHeader, into png: Data) -> Data {
        inserting(chunk("eXIf", exif), at: place, into: png)
    }

    /// The IHDR's bit depth and colour type (0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA).
    static func header(of png: Data) -> (bitDepth: Int, colorType: Int) {
        let bytes = [UInt8](png.prefix(33))
        return (Int(bytes[24]), Int(bytes[25]))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
