import Foundation
@testable import Imaging

/// Image files the tests make themselves, standing in for corpus files where a check needs a
/// file of a kind rather than a particular file: libjpeg's own encoder for the JPEGs,
/// ``SyntheticPNG`` for the interlaced PNG.
enum GeneratedFiles {
    /// A photo-like RGBA image: gradients with a little deterministic noise, so that JPEG scans
    /// carry detail and PNG filters have work to do.
    static func photo(width: Int, height: Int, alpha: Bool = false) -> Image {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        var state: UInt32 = 0x9E37_79B9
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 28) - 8
                func clamp(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value))) }
                bytes += [
                    clamp(x * 255 / max(1, width - 1) + noise), clamp(y * 255 / max(1, height - 1) - noise),
                    clamp((x + y) % 256 + noise / 2), alpha ? UInt8((x * 7 + y * 3) % 256) : 255,
                ]
            }
        }
        return Image(width: width, height: height, isOpaque: !alpha, bytes: bytes)
    }

    /// A baseline JPEG, 227×149 (the size of libjpeg's testorig.jpg), quality 75.
    static func baselineJPEG() throws -> Data {
        try ImageEncoders.jpeg(photo(width: 227, height: 149), quality: 0.75)
    }

    /// The same image as a progressive JPEG (libjpeg's default progression, ten scans).
    static func progressiveJPEG() throws -> Data {
        try ImageEncoders.jpeg(photo(width: 227, height: 149), quality: 0.75, progressive: true)
    }

    /// A non-interlaced RGBA PNG, 320×240, written by libpng.
    static func png() throws -> Data {
        try photo(width: 320, height: 240, alpha: true).pngData()
    }

    /// An Adam7-interlaced 8-bit RGBA PNG, 32×32 (the shape of PngSuite's basi6a08.png).
    static func interlacedPNG() -> Data {
        SyntheticPNG.encode(photo(width: 32, height: 32, alpha: true), colorType: .rgba, interlaced: true)
    }
}
