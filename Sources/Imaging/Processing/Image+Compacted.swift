import Foundation

extension Image {
    /// This image with tightly packed rows in a block of its own: itself when it already is
    /// one, else a copy (so a small view no longer keeps a large parent's pixels alive).
    func compacted() -> Image {
        if bytesPerRow == width * 4 && cost == bytesPerRow * height { return self }
        var copy: Image = withUnsafeBytes { source in
            Image(width: width, height: height, pixelFormat: pixelFormat, isOpaque: isOpaque) { pixels, rowLength in
                for y in 0..<height {
                    memcpy(pixels.baseAddress! + y * rowLength, source.baseAddress! + y * bytesPerRow, rowLength)
                }
            }
        }
        copy.isGray = isGray
        return copy
    }
}
