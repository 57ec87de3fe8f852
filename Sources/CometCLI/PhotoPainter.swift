import Foundation
import Imaging

/// Paints deterministic, photo-like landscapes: a graded sky with a glowing sun, layered ridges
/// fading into haze, and film grain, so that JPEG sizes and decode costs resemble photographs.
///
/// The same `seed` and size always give the same pixels.
enum PhotoPainter {
    /// A colour with floating-point channels (0...255).
    struct RGB: Sendable {
        var r: Float, g: Float, b: Float
        init(_ r: Float, _ g: Float, _ b: Float) { self.r = r; self.g = g; self.b = b }
    }

    /// The colours of one kind of scene.
    struct Palette: Sendable {
        var name: String
        var skyTop: RGB
        var horizon: RGB
        var sun: RGB
        /// Ridge colours from the farthest to the nearest.
        var layers: [RGB]
    }

    /// The scenes the painter picks from (by seed).
    static let palettes: [Palette] = [
        Palette(
            name: "dawn", skyTop: RGB(40, 60, 120), horizon: RGB(250, 170, 120), sun: RGB(255, 232, 190),
            layers: [RGB(130, 110, 150), RGB(85, 72, 115), RGB(40, 38, 62)]),
        Palette(
            name: "meadow", skyTop: RGB(60, 120, 205), horizon: RGB(185, 218, 242), sun: RGB(255, 255, 235),
            layers: [RGB(125, 152, 175), RGB(78, 128, 86), RGB(44, 98, 42)]),
        Palette(
            name: "sunset", skyTop: RGB(62, 30, 92), horizon: RGB(250, 122, 62), sun: RGB(255, 206, 128),
            layers: [RGB(134, 62, 84), RGB(82, 40, 62), RGB(30, 20, 36)]),
        Palette(
            name: "night", skyTop: RGB(6, 10, 32), horizon: RGB(34, 54, 96), sun: RGB(232, 232, 255),
            layers: [RGB(34, 44, 74), RGB(22, 30, 54), RGB(10, 14, 26)]),
        Palette(
            name: "desert", skyTop: RGB(86, 148, 222), horizon: RGB(240, 212, 172), sun: RGB(255, 250, 222),
            layers: [RGB(212, 164, 112), RGB(190, 130, 80), RGB(150, 94, 54)]),
        Palette(
            name: "arctic", skyTop: RGB(112, 164, 218), horizon: RGB(224, 234, 246), sun: RGB(255, 255, 255),
            layers: [RGB(196, 208, 226), RGB(160, 178, 204), RGB(232, 238, 248)]),
    ]

    /// The palette `seed` paints with.
    static func palette(for seed: UInt32) -> Palette {
        var z = seed
        z = (z ^ (z >> 16)) &* 0x45D9_F3B
        z = (z ^ (z >> 16)) &* 0x45D9_F3B
        z ^= z >> 16
        return palettes[Int(z % UInt32(palettes.count))]
    }

    /// Paints a `width`×`height` opaque landscape.
    static func paint(width: Int, height: Int, seed: UInt32) -> Image {
        var random = SplitMix(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        let palette = palette(for: seed)
        let w = Float(width), h = Float(height)
        let sunX = (0.15 + 0.7 * random.next()) * w
        let sunY = (0.12 + 0.3 * random.next()) * h
        let sunRadius = (0.03 + 0.04 * random.next()) * min(w, h)

        // Ridge heights per column, one row index per layer (far layers sit higher).
        let layerCount = palette.layers.count
        var ridges = [Int32](repeating: 0, count: layerCount * width)
        for layer in 0..<layerCount {
            let base = (0.42 + 0.14 * Float(layer) + 0.08 * random.next()) * h
            let amplitude = (0.05 + 0.07 * random.next()) * h / Float(layer + 1).squareRoot()
            let f1 = (1.5 + 2.5 * random.next()) * 2 * .pi / w, p1 = random.next() * 6.3
            let f2 = (5 + 6 * random.next()) * 2 * .pi / w, p2 = random.next() * 6.3
            let f3 = (17 + 20 * random.next()) * 2 * .pi / w, p3 = random.next() * 6.3
            for x in 0..<width {
                let fx = Float(x)
                let s1: Float = sin(f1 * fx + p1), s2: Float = sin(f2 * fx + p2), s3: Float = sin(f3 * fx + p3)
                let wave: Float = 0.62 * s1 + 0.28 * s2 + 0.1 * s3
                ridges[layer * width + x] = Int32(max(0, min(h - 1, base - amplitude * wave)))
            }
        }

        return Image(width: width, height: height, isOpaque: true) { pixels, bytesPerRow in
            let out = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let inverseRadius2 = 1 / (sunRadius * sunRadius)
            let hazeDepth = 1 / (0.45 * h)
            ridges.withUnsafeBufferPointer { ridges in
                for y in 0..<height {
                    let row = out + y * bytesPerRow
                    let t = min(1, Float(y) / (0.62 * h))
                    let sky = RGB(
                        palette.skyTop.r + (palette.horizon.r - palette.skyTop.r) * t,
                        palette.skyTop.g + (palette.horizon.g - palette.skyTop.g) * t,
                        palette.skyTop.b + (palette.horizon.b - palette.skyTop.b) * t)
                    let dy2 = (Float(y) - sunY) * (Float(y) - sunY)
                    let fy = Int32(y)
                    for x in 0..<width {
                        var color = sky
                        var layer = layerCount - 1
                        while layer >= 0 && fy < ridges[layer * width + x] { layer -= 1 }
                        if layer >= 0 {
                            let depth = min(1, Float(fy - ridges[layer * width + x]) * hazeDepth)
                            let shade = 1.08 - 0.4 * depth
                            let c = palette.layers[layer]
                            color = RGB(c.r * shade, c.g * shade, c.b * shade)
                        } else {
                            let dx = Float(x) - sunX
                            let d2 = (dx * dx + dy2) * inverseRadius2
                            let glow = d2 < 1 ? 1 : 0.55 / d2
                            color.r += (palette.sun.r - color.r) * glow
                            color.g += (palette.sun.g - color.g) * glow
                            color.b += (palette.sun.b - color.b) * glow
                        }
                        // Grain: a cheap hash of the coordinates, stronger on the ground.
                        var hash = UInt32(truncatingIfNeeded: x &* 374_761_393 &+ y &* 668_265_263) ^ seed
                        hash = (hash ^ (hash >> 13)) &* 1_274_126_177
                        let grain = (Float(hash >> 24) - 128) * (layer >= 0 ? 0.09 : 0.03)
                        let p = row + x * 4
                        p[0] = UInt8(max(0, min(255, color.r + grain)))
                        p[1] = UInt8(max(0, min(255, color.g + grain)))
                        p[2] = UInt8(max(0, min(255, color.b + grain)))
                        p[3] = 255
                    }
                }
            }
        }
    }

    /// `image` enlarged `factor` times by repeating pixels: a cheap way to make a very large
    /// image (fine detail does not matter for a thumbnail test).
    static func enlarged(_ image: Image, by factor: Int) -> Image {
        let width = image.width * factor, height = image.height * factor
        return image.withUnsafeBytes { source in
            Image(width: width, height: height, isOpaque: image.isOpaque) { pixels, bytesPerRow in
                let out = pixels.baseAddress!
                for y in 0..<image.height {
                    let src = (source.baseAddress! + y * image.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                    let first = (out + y * factor * bytesPerRow).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<image.width {
                        let value = src[x]
                        for k in 0..<factor { first[x * factor + k] = value }
                    }
                    for k in 1..<factor {
                        (out + (y * factor + k) * bytesPerRow).copyMemory(from: first, byteCount: bytesPerRow)
                    }
                }
            }
        }
    }
}

/// A small, fast, deterministic random number generator (SplitMix64).
struct SplitMix {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    init(seed: UInt64) { state = seed }

    /// The next value in 0..<1.
    mutating func next() -> Float {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Float(z >> 40) / Float(1 << 24)
    }
}
