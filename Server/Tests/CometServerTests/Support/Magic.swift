/// Magic-byte checks of encoded images.
enum Magic {
    static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0xFF, 0xD8, 0xFF]) }
    static func isPNG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) }
    static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count > 12 && bytes[0..<4].elementsEqual(Array("RIFF".utf8))
            && bytes[8..<12].elementsEqual(Array("WEBP".utf8))
    }
    static func isAVIF(_ bytes: [UInt8]) -> Bool {
        bytes.count > 12 && bytes[4..<8].elementsEqual(Array("ftyp".utf8))
            && (bytes[8..<12].elementsEqual(Array("avif".utf8)) || bytes[8..<12].elementsEqual(Array("avis".utf8)))
    }
}
