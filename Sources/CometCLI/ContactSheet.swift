import Comet
import Foundation

/// A contact sheet: square tiles of the gallery's thumbnails in a grid on a dark background.
///
/// Layout: tiles of ``tileSize`` pixels with ``gap`` pixels around each, ``maxColumns`` per row
/// (fewer when there are fewer images), rows as needed. So `n` images make a sheet
/// `columns × (tile + gap) + gap` wide and `rows × (tile + gap) + gap` high.
struct ContactSheet {
    /// The side of one tile in pixels.
    static let tileSize = 128
    /// The space between and around tiles in pixels.
    static let gap = 8
    /// Tiles per row at most.
    static let maxColumns = 8
    /// The background colour.
    static let background = RGBA8(red: 22, green: 24, blue: 30, alpha: 255)

    /// The sheet's size in pixels for `count` images.
    static func size(for count: Int) -> Size {
        let columns = max(1, min(maxColumns, count))
        let rows = max(1, (count + columns - 1) / columns)
        return Size(width: columns * (tileSize + gap) + gap, height: rows * (tileSize + gap) + gap)
    }

    /// The images, in order.
    let images: [Image]

    /// Draws the sheet. Each image is scaled to fill its tile (cropped to a square) and drawn
    /// over the background (transparent parts show the background).
    func render() throws -> Image {
        let size = Self.size(for: images.count)
        let columns = max(1, min(Self.maxColumns, images.count))
        let tiles = try images.map {
            try ImageProcessors.Resize(
                size: Size(width: Self.tileSize, height: Self.tileSize),
                contentMode: .aspectFill, crop: true, upscale: true
            ).process($0)
        }
        let background = Self.background
        return Image(width: size.width, height: size.height, isOpaque: true) { pixels, bytesPerRow in
            let out = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for i in stride(from: 0, to: pixels.count, by: 4) {
                out[i] = background.red; out[i + 1] = background.green; out[i + 2] = background.blue; out[i + 3] = 255
            }
            for (index, tile) in tiles.enumerated() {
                let left = Self.gap + (index % columns) * (Self.tileSize + Self.gap)
                let top = Self.gap + (index / columns) * (Self.tileSize + Self.gap)
                Self.draw(tile, into: out, bytesPerRow: bytesPerRow, left: left, top: top)
            }
        }
    }

    /// Composites `tile` over what is at (`left`, `top`) ("source over", in premultiplied terms).
    private static func draw(
        _ tile: Image, into out: UnsafeMutablePointer<UInt8>, bytesPerRow: Int, left: Int, top: Int
    ) {
        let premultiplied = tile.pixelFormat == .rgba8Premultiplied
        tile.withUnsafeBytes { source in
            let base = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<min(tile.height, tileSize) {
                let src = base + y * tile.bytesPerRow
                let dst = out + (top + y) * bytesPerRow + left * 4
                for x in 0..<min(tile.width, tileSize) {
                    let s = src + x * 4, d = dst + x * 4
                    let alpha = Int(s[3])
                    if alpha == 255 {
                        d[0] = s[0]; d[1] = s[1]; d[2] = s[2]
                        continue
                    }
                    for c in 0..<3 {
                        let color = premultiplied ? Int(s[c]) : (Int(s[c]) * alpha + 127) / 255
                        d[c] = UInt8(min(255, color + (Int(d[c]) * (255 - alpha) + 127) / 255))
                    }
                }
            }
        }
    }
}
