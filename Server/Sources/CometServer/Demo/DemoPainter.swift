import Comet
import Foundation

/// Paints the demo's source images: a graded sky, a sun and two rolling ridges, opaque; or a
/// badge (a disc with a ring) on a transparent background. The same arguments always paint the
/// same pixels.
enum DemoPainter {
    /// A landscape of `width`×`height`; `hue` (0...5) picks the colours.
    static func landscape(width: Int, height: Int, hue: Int) -> Image {
        let palettes: [[(Float, Float, Float)]] = [
            [(40, 60, 120), (250, 170, 120), (255, 232, 190), (85, 72, 115), (40, 38, 62)],
            [(60, 120, 205), (185, 218, 242), (255, 255, 235), (78, 128, 86), (44, 98, 42)],
            [(62, 30, 92), (250, 122, 62), (255, 206, 128), (82, 40, 62), (30, 20, 36)],
            [(6, 10, 32), (34, 54, 96), (232, 232, 255), (22, 30, 54), (10, 14, 26)],
            [(86, 148, 222), (240, 212, 172), (255, 250, 222), (190, 130, 80), (150, 94, 54)],
            [(112, 164, 218), (224, 234, 246), (255, 255, 255), (160, 178, 204), (232, 238, 248)],
        ]
        let palette = palettes[hue % palettes.count]
        let w = Float(width), h = Float(height)
        let sun = (x: w * (0.2 + 0.12 * Float(hue)), y: h * 0.28, radius: min(w, h) * 0.07)
        let phase = Float(hue) * 1.3
        // The ridges' heights per column, computed once rather than per pixel.
        var far = [Float](repeating: 0, count: width), near = [Float](repeating: 0, count: width)
        for x in 0..<width {
            let u = Float(x) / w
            let farWave: Float = 0.06 * sin(u * 7 + phase) + 0.03 * sin(u * 23 + phase)
            let nearWave: Float = 0.08 * sin(u * 4 + phase * 2) + 0.02 * sin(u * 31)
            far[x] = h * (0.55 + farWave)
            near[x] = h * (0.72 + nearWave)
        }
        return Image(width: width, height: height, isOpaque: true) { pixels, bytesPerRow in
            for y in 0..<height {
                let fy = Float(y)
                let t = fy / h
                for x in 0..<width {
                    let fx = Float(x)
                    var colour: (Float, Float, Float)
                    if fy >= near[x] {
                        colour = palette[4]
                    } else if fy >= far[x] {
                        colour = palette[3]
                    } else {
                        colour = mix(palette[0], palette[1], t / 0.6)
                        let dx = fx - sun.x, dy = fy - sun.y
                        let distance = (dx * dx + dy * dy).squareRoot()
                        if distance < sun.radius {
                            colour = palette[2]
                        } else if distance < sun.radius * 3 {
                            colour = mix(palette[2], colour, (distance - sun.radius) / (sun.radius * 2))
                        }
                    }
                    // A little texture, so encoders see something like a photograph.
                    let grain = Float((x &* 73 &+ y &* 151 &+ (x ^ y) &* 13) % 17) - 8
                    let offset = y * bytesPerRow + x * 4
                    pixels[offset] = clamp(colour.0 + grain)
                    pixels[offset + 1] = clamp(colour.1 + grain)
                    pixels[offset + 2] = clamp(colour.2 + grain)
                    pixels[offset + 3] = 255
                }
            }
        }
    }

    /// A `size`×`size` badge with transparency around it (straight alpha).
    static func badge(size: Int) -> Image {
        let centre = Float(size) / 2
        return Image(width: size, height: size, isOpaque: false) { pixels, bytesPerRow in
            for y in 0..<size {
                for x in 0..<size {
                    let dx = Float(x) + 0.5 - centre, dy = Float(y) + 0.5 - centre
                    let r = (dx * dx + dy * dy).squareRoot() / centre
                    let offset = y * bytesPerRow + x * 4
                    let (colour, alpha): ((Float, Float, Float), Float) =
                        r < 0.62
                        ? ((240, 120, 40), 1)
                        : r < 0.8 ? ((250, 250, 250), 1) : r < 0.95 ? ((40, 90, 200), 1) : ((0, 0, 0), 0)
                    pixels[offset] = clamp(colour.0)
                    pixels[offset + 1] = clamp(colour.1)
                    pixels[offset + 2] = clamp(colour.2)
                    pixels[offset + 3] = clamp(alpha * 255)
                }
            }
        }
    }

    private static func mix(_ a: (Float, Float, Float), _ b: (Float, Float, Float), _ t: Float) -> (Float, Float, Float)
    {
        let t = min(max(t, 0), 1)
        return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }

    private static func clamp(_ value: Float) -> UInt8 {
        UInt8(min(max(value, 0), 255).rounded())
    }
}
