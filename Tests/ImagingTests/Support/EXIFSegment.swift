import Foundation

/// An EXIF APP1 segment that holds one tag, the orientation, written by the tests: "Exif\0\0",
/// a TIFF header in either byte order, and IFD0 with tag 0x0112 (SHORT). Its TIFF part alone is
/// what a PNG's eXIf chunk holds (``PNGChunks``).
enum EXIFSegment {
    /// The EXIF block for EXIF orientation `orientation` (1–8) without JPEG's "Exif\0\0"
    /// identifier: a TIFF header and IFD0, what a PNG eXIf chunk holds.
    static func tiff(orientation: Int, bigEndian: Bool) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func u32(_ value: Int) -> [UInt8] {
            bigEndian ? u16(value >> 16) + u16(value & 0xFFFF) : u16(value & 0xFFFF) + u16(value >> 16)
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)  // magic, offset of IFD0
        tiff += u16(1)  // one entry
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]  // orientation, SHORT, 1 value
        tiff += u32(0)  // no next IFD
        return tiff
    }

    /// The APP1 segment (marker included) for EXIF orientation `orientation` (1–8).
    static func orientation(_ orientation: Int, bigEndian: Bool) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff(orientation: orientation, bigEndian: bigEndian)
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// `jpeg` with the orientation segment right after its start-of-image marker.
    static func inserting(orientation: Int, bigEndian: Bool = true, into jpeg: Data) -> Data {
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "not a JPEG")
        return Data([0xFF, 0xD8] + Self.orientation(orientation, bigEndian: bigEndian) + jpeg.dropFirst(2))
    }
}
