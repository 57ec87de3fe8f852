import Comet

/// Draws images in a truecolor terminal with half blocks: each character cell shows two pixels
/// (the upper as the foreground of `▀`, the lower as the background).
enum TerminalPreview {
    /// Rows of `images` side by side, each scaled to `side`×`side` pixels (`side / 2` lines),
    /// as many per row as fit in `columns`; ends with a colour reset.
    static func render(_ images: [Image], side: Int = 16, columns: Int) throws -> String {
        let tiles = try images.map {
            try ImageProcessors.Resize(
                size: Size(width: side, height: side), contentMode: .aspectFill,
                crop: true, upscale: true
            ).process($0)
        }
        let perRow = max(1, min(tiles.count, (columns + 1) / (side + 1)))
        var output = ""
        for start in stride(from: 0, to: tiles.count, by: perRow) {
            let row = tiles[start..<min(tiles.count, start + perRow)]
            for y in stride(from: 0, to: side, by: 2) {
                for (position, tile) in row.enumerated() {
                    if position > 0 { output += "\u{1B}[0m " }
                    for x in 0..<min(side, tile.width) {
                        let top = tile.pixel(x: x, y: min(y, tile.height - 1))
                        let bottom = tile.pixel(x: x, y: min(y + 1, tile.height - 1))
                        output += "\u{1B}[38;2;\(top.red);\(top.green);\(top.blue)m"
                        output += "\u{1B}[48;2;\(bottom.red);\(bottom.green);\(bottom.blue)m▀"
                    }
                }
                output += "\u{1B}[0m\n"
            }
        }
        return output
    }
}
