import Comet
import Foundation

/// BlurHash, Wolt's compact placeholder for an image: a few cosine components of the image in
/// linear RGB, written in a base-83 alphabet that is safe in JSON, HTML and shells (about 20 to
/// 30 characters). A client decodes it into a blurred picture to show while the image loads.
///
/// Made from the algorithm's published description (its `Algorithm.md`): the first character
/// says how many components there are, the second the largest AC component, four characters
/// the average colour in sRGB, and two characters each AC component, quantised to 19 levels
/// per channel on a square-root scale. Alpha is ignored, as the reference encoder ignores it.
///
/// Thread-safe (stateless).
public enum BlurHash {
    /// The components allowed along either axis.
    public static let componentRange = 1...9

    /// The hash of `image` with `xComponents` × `yComponents` components (each in
    /// ``componentRange``; 4 × 3 is the usual choice). Its cost is the image's pixel count times
    /// the component count, so hash a small copy (a few dozen pixels a side keeps what a
    /// placeholder shows). - Precondition: both counts are in ``componentRange``.
    public static func encode(_ image: Image, xComponents: Int = 4, yComponents: Int = 3) -> String {
        precondition(componentRange.contains(xComponents) && componentRange.contains(yComponents))
        let rgba = image.pixelFormat == .rgba8 ? image : image.converted(to: .rgba8)
        let (width, height) = (rgba.width, rgba.height)
        let linear = linearChannels(of: rgba)
        var factors: [(Double, Double, Double)] = []
        factors.reserveCapacity(xComponents * yComponents)
        let columns = (0..<xComponents).map { i in
            (0..<width).map { x in cos(Double.pi * Double(i) * Double(x) / Double(width)) }
        }
        let rows = (0..<yComponents).map { j in
            (0..<height).map { y in cos(Double.pi * Double(j) * Double(y) / Double(height)) }
        }
        for j in 0..<yComponents {
            for i in 0..<xComponents {
                var (r, g, b) = (0.0, 0.0, 0.0)
                for y in 0..<height {
                    let rowWeight = rows[j][y]
                    var (rowR, rowG, rowB) = (0.0, 0.0, 0.0)
                    var index = y * width * 3
                    for x in 0..<width {
                        let weight = columns[i][x]
                        rowR += weight * linear[index]
                        rowG += weight * linear[index + 1]
                        rowB += weight * linear[index + 2]
                        index += 3
                    }
                    r += rowWeight * rowR
                    g += rowWeight * rowG
                    b += rowWeight * rowB
                }
                let scale = (i == 0 && j == 0 ? 1.0 : 2.0) / Double(width * height)
                factors.append((r * scale, g * scale, b * scale))
            }
        }
        return hash(factors: factors, xComponents: xComponents, yComponents: yComponents)
    }

    /// The hash's characters for the components `factors` (the DC first, then the AC ones with
    /// x varying fastest).
    static func hash(factors: [(Double, Double, Double)], xComponents: Int, yComponents: Int) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(4 + 2 * factors.count)
        appendBase83((xComponents - 1) + (yComponents - 1) * 9, digits: 1, to: &output)
        let ac = factors.dropFirst()
        var maximum = 1.0
        if ac.isEmpty {
            appendBase83(0, digits: 1, to: &output)
        } else {
            let largest = ac.reduce(0.0) { max($0, abs($1.0), abs($1.1), abs($1.2)) }
            let quantised = Int(max(0, min(82, (largest * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            appendBase83(quantised, digits: 1, to: &output)
        }
        let dc = factors[0]
        appendBase83(sRGB(dc.0) << 16 | sRGB(dc.1) << 8 | sRGB(dc.2), digits: 4, to: &output)
        for component in ac {
            func level(_ value: Double) -> Int {
                let scaled = value / maximum
                let root = (scaled < 0 ? -1.0 : 1.0) * abs(scaled).squareRoot()
                return Int(max(0, min(18, (root * 9 + 9.5).rounded(.down))))
            }
            appendBase83(
                level(component.0) * 361 + level(component.1) * 19 + level(component.2), digits: 2, to: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The 83 digits, in value order.
    static let alphabet = Array(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    /// Appends `value` as `digits` base-83 digits, the most significant first.
    static func appendBase83(_ value: Int, digits: Int, to output: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<max(digits, 1) { divisor *= 83 }
        for _ in 0..<digits {
            output.append(alphabet[(value / divisor) % 83])
            divisor /= 83
        }
    }

    /// The image's R, G and B in linear light (0…1), three per pixel, row by row.
    private static func linearChannels(of image: Image) -> [Double] {
        let (width, height, bytesPerRow) = (image.width, image.height, image.bytesPerRow)
        var linear = [Double](repeating: 0, count: width * height * 3)
        image.withUnsafeBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let source = y * bytesPerRow + x * 4
                    let target = (y * width + x) * 3
                    for channel in 0..<3 { linear[target + channel] = linearTable[Int(bytes[source + channel])] }
                }
            }
        }
        return linear
    }

    /// sRGB's decoding curve for each 8-bit value.
    private static let linearTable: [Double] = (0..<256).map { value in
        let v = Double(value) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// A linear value (clamped to 0…1) as an 8-bit sRGB value.
    private static func sRGB(_ value: Double) -> Int {
        let v = max(0, min(1, value))
        let encoded = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
        return Int(encoded * 255 + 0.5)
    }
}
