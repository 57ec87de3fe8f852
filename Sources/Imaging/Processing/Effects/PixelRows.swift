/// Row-by-row building blocks of the effects: a new image whose rows are computed from the
/// source's, and the straight/premultiplied round trips the colour operations need.
enum PixelRows {
    /// A new image of `image`'s size and format whose rows are `body(sourceRow, outputRow, width)`.
    /// The rows are `width * 4` bytes; `isOpaque` is the output's flag.
    static func map(
        _ image: Image, isOpaque: Bool,
        _ body: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int) -> Void
    ) -> Image {
        image.withUnsafeBytes { source in
            Image(width: image.width, height: image.height, pixelFormat: image.pixelFormat, isOpaque: isOpaque) {
                pixels, rowLength in
                let input = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let output = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<image.height {
                    body(input + y * image.bytesPerRow, output + y * rowLength, image.width)
                }
            }
        }
    }

    /// `operation` applied to `image`'s straight-alpha colour: premultiplied images with
    /// transparency are unpremultiplied first and premultiplied again after, so an operation
    /// that is not linear (a tone curve) sees the colour a person sees.
    static func onStraightColor(_ image: Image, _ operation: (Image) -> Image) -> Image {
        guard image.pixelFormat == .rgba8Premultiplied, !image.isOpaque else { return operation(image) }
        return AlphaConversion.premultiplied(operation(AlphaConversion.unpremultiplied(image)))
    }

    /// `operation` applied to `image`'s premultiplied colour: straight images with transparency
    /// are premultiplied first and unpremultiplied after, so an operation that mixes neighbours
    /// (a blur, a block average) does not darken transparent edges.
    static func onPremultipliedColor(_ image: Image, _ operation: (Image) -> Image) -> Image {
        guard image.pixelFormat == .rgba8, !image.isOpaque else { return operation(image) }
        return AlphaConversion.unpremultiplied(operation(AlphaConversion.premultiplied(image)))
    }

    /// `image` with each colour byte (not alpha) replaced by `table[byte]`.
    static func lookUp(_ image: Image, table: [UInt8]) -> Image {
        precondition(table.count == 256)
        return table.withUnsafeBufferPointer { table in
            map(image, isOpaque: image.isOpaque) { source, output, width in
                for i in 0..<width {
                    let o = i * 4
                    output[o] = table[Int(source[o])]
                    output[o + 1] = table[Int(source[o + 1])]
                    output[o + 2] = table[Int(source[o + 2])]
                    output[o + 3] = source[o + 3]
                }
            }
        }
    }
}
