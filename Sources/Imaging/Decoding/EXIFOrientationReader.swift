/// Finds the EXIF orientation tag in a JPEG's APP1 segment by walking the marker segments
/// before the first scan, or in a PNG's eXIf chunk (the same TIFF-structured block).
/// Bounds-checked throughout: malformed input yields `.up`.
enum EXIFOrientationReader {
    static func orientation(inJPEG bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .up }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return .up }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xDA || marker == 0xD9 { return .up }  // start of scan / end of image
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return .up }
            if marker == 0xE1 {
                let segment = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 2 + length)])
                if let orientation = orientation(inEXIF: segment) { return orientation }
            }
            offset += 2 + length
        }
        return .up
    }

    /// JPEG's EXIF identifier, "Exif\0\0", which starts an APP1 segment's EXIF block.
    private static let identifier: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// Parses "Exif\0\0" + a TIFF header + IFD0, looking for tag 0x0112.
    static func orientation(inEXIF segment: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard segment.count >= 14, segment.starts(with: identifier) else { return nil }
        return orientation(inTIFF: UnsafeRawBufferPointer(rebasing: segment[6...]))
    }

    /// The orientation in a PNG eXIf chunk's data: a TIFF header and IFD0, as the chunk's
    /// definition says, or the same after JPEG's "Exif\0\0" identifier, which
    /// some writers leave in. Bounds-checked throughout: anything malformed yields `.up`.
    static func orientation(inPNGEXIF data: UnsafeRawBufferPointer) -> ImageOrientation {
        let orientation = data.starts(with: identifier) ? orientation(inEXIF: data) : orientation(inTIFF: data)
        return orientation ?? .up
    }

    /// Parses a TIFF header ("II" or "MM", 42, the offset of IFD0) and IFD0, looking for tag
    /// 0x0112; `nil` when it is absent, out of range or anything on the way is malformed.
    static func orientation(inTIFF tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return littleEndian ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func read32(_ at: Int) -> Int? {
            guard let a = read16(at), let b = read16(at + 2) else { return nil }
            return littleEndian ? a | b << 16 : a << 16 | b
        }
        guard read16(2) == 42, let ifd = read32(4), let count = read16(ifd) else { return nil }
        for index in 0..<min(count, 512) {
            let entry = ifd + 2 + index * 12
            guard let tag = read16(entry) else { return nil }
            if tag == 0x0112 {
                guard let type = read16(entry + 2), type == 3, let value = read16(entry + 8) else { return nil }
                return ImageOrientation(rawValue: value)
            }
        }
        return nil
    }
}
