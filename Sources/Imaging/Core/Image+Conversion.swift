extension Image {
    /// This image in `format`: the same image when it already is, else a converted copy.
    ///
    /// Premultiplying rounds to nearest; unpremultiplying cannot restore colour lost where
    /// alpha was 0 or small. Opaque images convert without touching pixels (the formats agree
    /// where alpha is 255), so the copy is skipped and only the format tag changes. Either way
    /// grey stays grey (every channel converts alike), so ``isGray`` carries over.
    public func converted(to format: PixelFormat) -> Image {
        guard format != pixelFormat else { return self }
        if isOpaque {
            var retagged = Image(
                width: width, height: height, pixelFormat: format, bytesPerRow: bytesPerRow,
                isOpaque: true, storage: storage, byteOffset: byteOffset
            ).withColorProfile(colorProfile)
            retagged.isGray = isGray
            return retagged
        }
        let premultiply = format == .rgba8Premultiplied
        let converted: Image = withUnsafeBytes { source in
            Image(width: width, height: height, pixelFormat: format, isOpaque: false) { destination, rowLength in
                let out = destination.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let input = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<height {
                    let s = input + y * bytesPerRow
                    let d = out + y * rowLength
                    var i = 0
                    while i < width * 4 {
                        let a = UInt32(s[i + 3])
                        if a == 255 {
                            d[i] = s[i]; d[i + 1] = s[i + 1]; d[i + 2] = s[i + 2]
                        } else if premultiply {
                            d[i] = UInt8((UInt32(s[i]) * a + 127) / 255)
                            d[i + 1] = UInt8((UInt32(s[i + 1]) * a + 127) / 255)
                            d[i + 2] = UInt8((UInt32(s[i + 2]) * a + 127) / 255)
                        } else if a == 0 {
                            d[i] = 0; d[i + 1] = 0; d[i + 2] = 0
                        } else {
                            d[i] = UInt8(min(255, (UInt32(s[i]) * 255 + a / 2) / a))
                            d[i + 1] = UInt8(min(255, (UInt32(s[i + 1]) * 255 + a / 2) / a))
                            d[i + 2] = UInt8(min(255, (UInt32(s[i + 2]) * 255 + a / 2) / a))
                        }
                        d[i + 3] = s[i + 3]
                        i += 4
                    }
                }
            }
        }
        var result = converted.withColorProfile(colorProfile)
        result.isGray = isGray
        return result
    }
}
