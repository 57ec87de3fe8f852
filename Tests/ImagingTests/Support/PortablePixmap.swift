import Foundation
@testable import Imaging

/// Reads binary PPM (P6, 8-bit) files: libjpeg-turbo's reference decodes are stored that way.
enum PortablePixmap {
    static func read(_ data: Data) throws -> Image {
        let bytes = [UInt8](data)
        var fields: [Int] = []
        var index = 2
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else {
            throw Failure.notPPM
        }
        while fields.count < 3 {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
            { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                continue
            }
            var value = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30); index += 1
            }
            fields.append(value)
        }
        index += 1  // the single whitespace after maxval
        let (width, height) = (fields[0], fields[1])
        guard fields[2] == 255, bytes.count >= index + width * height * 3 else { throw Failure.unsupported }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            rgba[4 * i] = bytes[index + 3 * i]
            rgba[4 * i + 1] = bytes[index + 3 * i + 1]
            rgba[4 * i + 2] = bytes[index + 3 * i + 2]
        }
        return Image(width: width, height: height, isOpaque: true, bytes: rgba)
    }

    enum Failure: Error { case notPPM, unsupported }
}

/// Largest and mean absolute channel difference between two same-size images (colour only).
func channelDifference(_ a: Image, _ b: Image) -> (max: Int, mean: Double) {
    precondition(a.width == b.width && a.height == b.height, "\(a) vs \(b)")
    let pa = a.packedBytes, pb = b.packedBytes
    var worst = 0
    var total = 0
    for i in 0..<pa.count where i % 4 != 3 {
        let d = abs(Int(pa[i]) - Int(pb[i]))
        worst = max(worst, d)
        total += d
    }
    return (worst, Double(total) / Double(pa.count / 4 * 3))
}
