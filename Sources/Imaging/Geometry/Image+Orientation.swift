extension Image {
    /// This image turned upright according to `orientation`: the same image for `.up`, else a
    /// new image (width and height swap for the 90° cases), with this one's ``colorProfile`` and
    /// ``isGray``.
    public func applying(_ orientation: ImageOrientation) -> Image {
        guard orientation != .up else { return self }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        let (w, h) = (width, height)
        let profile = colorProfile
        let oriented: Image = withUnsafeBytes { source in
            let input = source.baseAddress!
            return Image(width: outWidth, height: outHeight, pixelFormat: pixelFormat, isOpaque: isOpaque) {
                destination, rowLength in
                let output = destination.baseAddress!
                // For each output pixel (x, y), the source pixel it comes from.
                for y in 0..<outHeight {
                    let row = (output + y * rowLength).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<outWidth {
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        row[x] = (input + sy * bytesPerRow + sx * 4).loadUnaligned(as: UInt32.self)
                    }
                }
            }
        }
        var result = oriented.withColorProfile(profile)
        result.isGray = isGray
        return result
    }
}
