import Comet

/// Makes deterministic "photo-like" images: smooth gradients, soft shapes and sensor grain, so
/// that JPEG and PNG sizes and decode costs resemble photographs rather than flat test cards
/// (about 125 KB per 1024×768 JPEG at quality 85).
public enum PhotoGenerator {
    public static func image(width: Int, height: Int, seed: UInt32, alpha: Bool = false) -> Image {
        var state = seed &* 2_654_435_761 | 1
        func random() -> Float {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return Float(state % 10_000) / 10_000
        }
        let base = (random() * 255, random() * 255, random() * 255)
        let shift = (random() * 200 - 100, random() * 200 - 100, random() * 200 - 100)
        let blobs = (0..<6).map { _ in
            (
                x: random() * Float(width), y: random() * Float(height),
                radius: (0.1 + random() * 0.3) * Float(min(width, height)),
                color: (random() * 255, random() * 255, random() * 255)
            )
        }
        return Image(width: width, height: height, isOpaque: !alpha) { pixels, bytesPerRow in
            let out = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                let fy = Float(y) / Float(height)
                let row = out + y * bytesPerRow
                for x in 0..<width {
                    let fx = Float(x) / Float(width)
                    var r = base.0 + shift.0 * fx, g = base.1 + shift.1 * fy, b = base.2 + shift.2 * (fx + fy) / 2
                    for blob in blobs {
                        let dx = Float(x) - blob.x, dy = Float(y) - blob.y
                        let d2 = (dx * dx + dy * dy) / (blob.radius * blob.radius)
                        if d2 < 1 {
                            let w = (1 - d2) * (1 - d2)
                            r += (blob.color.0 - r) * w; g += (blob.color.1 - g) * w; b += (blob.color.2 - b) * w
                        }
                    }
                    // Sensor grain: a cheap hash of the coordinates, uniform in ±9 levels, which
                    // gives a 1024×768 photo at JPEG quality 85 about 125 KB, as real photos
                    // have (±4 gave 61 KB: half the entropy, so a cheaper decode).
                    var h = UInt32(truncatingIfNeeded: x &* 374_761_393 &+ y &* 668_265_263) ^ seed
                    h = (h ^ (h >> 13)) &* 1_274_126_177
                    let grain = Float(h >> 24) / 255 * 18 - 9
                    let p = row + x * 4
                    p[0] = UInt8(max(0, min(255, r + grain)))
                    p[1] = UInt8(max(0, min(255, g + grain)))
                    p[2] = UInt8(max(0, min(255, b + grain)))
                    p[3] = alpha ? UInt8(max(0, min(255, 255 * (1 - fx * fy)))) : 255
                }
            }
        }
    }
}
