import Comet

extension Image {
    /// This image laid on an opaque `background`: each pixel blended over it by its alpha, the
    /// result opaque. For formats without alpha (JPEG), whose encoders would otherwise keep only
    /// the colour channels (black where the image is transparent). An opaque image is returned
    /// as it is. Pure; any thread.
    func flattened(onto background: RGBA8) -> Image {
        guard !isOpaque else { return self }
        let isPremultiplied = pixelFormat == .rgba8Premultiplied
        let back = [UInt32(background.red), UInt32(background.green), UInt32(background.blue)]
        return withUnsafeBytes { source in
            Image(width: width, height: height, pixelFormat: .rgba8, isOpaque: true) { pixels, outputBytesPerRow in
                for y in 0..<height {
                    let input = y * bytesPerRow, output = y * outputBytesPerRow
                    for x in 0..<width {
                        let from = input + x * 4, to = output + x * 4
                        let alpha = UInt32(source[from + 3]), rest = 255 - alpha
                        for channel in 0..<3 {
                            let value = UInt32(source[from + channel])
                            // Straight alpha: v·a + b·(1−a); premultiplied: v + b·(1−a) (rounded).
                            let blended =
                                isPremultiplied
                                ? value * 255 + back[channel] * rest : value * alpha + back[channel] * rest
                            pixels[to + channel] = UInt8(min(255, (blended + 127) / 255))
                        }
                        pixels[to + 3] = 255
                    }
                }
            }
        }
    }
}
