/// The JPEG thumbnail a JPEG's EXIF block may carry (IFD1's `JPEGInterchangeFormat` and its
/// length), for `eth`: found by walking the marker segments before the first scan, as Imaging's
/// orientation reader does, with every offset and length checked against the bytes (malformed
/// input gives no thumbnail). Only a thumbnail of a source whose orientation is upright (or not
/// given) is returned: the tag that turns the source is not the thumbnail's own.
enum EXIFThumbnail {
    /// The embedded thumbnail's bytes and its size, or `nil`.
    static func jpeg(in bytes: [UInt8]) -> (bytes: ArraySlice<UInt8>, width: Int, height: Int)? {
        firstSegment(in: bytes[...]) { marker, body in
            guard marker == 0xE1, let found = thumbnail(inEXIF: body), let size = size(ofJPEG: found) else {
                return nil
            }
            return (found, size.width, size.height)
        }
    }

    /// The first non-`nil` `visit(marker, body)` over the marker segments of the JPEG `bytes`
    /// before its first scan (`body`: the segment after its length field); `nil` when none gives
    /// one, or at the first segment that is malformed or runs past the bytes.
    private static func firstSegment<T>(
        in bytes: ArraySlice<UInt8>, _ visit: (UInt8, ArraySlice<UInt8>) -> T?
    ) -> T? {
        guard bytes.count > 4, bytes[bytes.startIndex] == 0xFF, bytes[bytes.startIndex + 1] == 0xD8 else {
            return nil
        }
        var offset = bytes.startIndex + 2
        while offset + 4 <= bytes.endIndex {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.endIndex else { return nil }
            if let found = visit(marker, bytes[(offset + 4)..<(offset + 2 + length)]) { return found }
            offset += 2 + length
        }
        return nil
    }

    /// The thumbnail in an APP1 segment's body ("Exif\0\0", a TIFF header, IFD0, IFD1).
    private static func thumbnail(inEXIF segment: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard segment.count >= 14, segment.prefix(6).elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else {
            return nil
        }
        let tiff = segment.dropFirst(6)
        let base = tiff.startIndex
        let littleEndian: Bool
        switch (tiff[base], tiff[base + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let (a, b) = (Int(tiff[base + at]), Int(tiff[base + at + 1]))
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func read32(_ at: Int) -> Int? {
            guard let a = read16(at), let b = read16(at + 2) else { return nil }
            return littleEndian ? a | b << 16 : a << 16 | b
        }
        /// The value of `tag` (a SHORT or a LONG) in the IFD at `ifd`.
        func value(_ tag: Int, in ifd: Int) -> Int? {
            guard let count = read16(ifd) else { return nil }
            for index in 0..<min(count, 512) {
                let entry = ifd + 2 + index * 12
                guard read16(entry) == tag, let type = read16(entry + 2) else { continue }
                return type == 3 ? read16(entry + 8) : type == 4 ? read32(entry + 8) : nil
            }
            return nil
        }
        guard read16(2) == 42, let ifd0 = read32(4), let count0 = read16(ifd0) else { return nil }
        if let orientation = value(0x0112, in: ifd0), orientation != 1 { return nil }
        guard let ifd1 = read32(ifd0 + 2 + min(count0, 512) * 12), ifd1 > 0,
            let start = value(0x0201, in: ifd1), let length = value(0x0202, in: ifd1),
            length > 4, start > 0, start + length <= tiff.count
        else { return nil }
        let thumbnail = tiff[(base + start)..<(base + start + length)]
        guard thumbnail.starts(with: [0xFF, 0xD8]) else { return nil }
        return thumbnail
    }

    /// The width and height in a JPEG's first frame header (SOF0 to SOF15 but DHT, JPG, DAC).
    static func size(ofJPEG bytes: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        firstSegment(in: bytes) { marker, body in
            guard (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC, body.count >= 5
            else { return nil }
            let start = body.startIndex
            let height = Int(body[start + 1]) << 8 | Int(body[start + 2])
            let width = Int(body[start + 3]) << 8 | Int(body[start + 4])
            return width > 0 && height > 0 ? (width, height) : nil
        }
    }
}
