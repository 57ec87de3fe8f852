extension ImageProcessors {
    /// Replaces square blocks of pixels by their average colour: imgproxy's `pixelate:%size`.
    ///
    /// Blocks are `size` × `size` pixels from the top left corner; those at the right and
    /// bottom edges are cut short by the image and average only the pixels they hold. Averages
    /// are of premultiplied colour (transparent pixels do not darken a block), rounded to the
    /// nearest value. The image keeps its size and pixel format. One pass that sums each block
    /// row into a row of totals, then writes the averages.
    ///
    /// Limits: `size` from 1 (nothing changes) to ``maximumSize``; other sizes make
    /// ``validate()`` and ``process(_:)`` throw.
    public struct Pixelate: ImageProcessing, Hashable {
        /// The largest block side accepted, in pixels.
        public static let maximumSize = 1024

        /// The block side in pixels.
        public let size: Int

        /// Blocks of `size` × `size` pixels.
        public init(size: Int) { self.size = size }

        /// E.g. `com.comet.pixelate?size=8`.
        public var identifier: String { "com.comet.pixelate?size=\(size)" }

        /// Throws ``ImageProcessingError`` when ``size`` is outside 1…``maximumSize``;
        /// ``process(_:)`` calls it first, and a server may call it before fetching anything.
        public func validate() throws(ImageProcessingError) {
            guard size >= 1, size <= Self.maximumSize else {
                throw ImageProcessingError(
                    processor: identifier, reason: "the pixelation size must be from 1 to \(Self.maximumSize) pixels")
            }
        }

        /// The pixelated image (the image itself for blocks of one pixel).
        public func process(_ image: Image) throws -> Image {
            try validate()
            guard size > 1 else { return image }
            return PixelRows.onPremultipliedColor(image) { pixelated($0) }
        }

        private func pixelated(_ image: Image) -> Image {
            let (w, h) = (image.width, image.height)
            let columns = (w + size - 1) / size
            // Per block of the current block row, four channel totals (at most 1024² × 255 < 2³²).
            var totals = [UInt32](repeating: 0, count: columns * 4)
            return image.withUnsafeBytes { source in
                Image(width: w, height: h, pixelFormat: image.pixelFormat, isOpaque: image.isOpaque) {
                    pixels, rowLength in
                    let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    let output = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    totals.withUnsafeMutableBufferPointer { totals in
                        for top in stride(from: 0, to: h, by: size) {
                            let bottom = min(top + size, h)
                            for i in totals.indices { totals[i] = 0 }
                            for y in top..<bottom {
                                let row = src + y * image.bytesPerRow
                                for block in 0..<columns {
                                    var sum = SIMD4<UInt32>()
                                    for x in (block * size)..<min(block * size + size, w) {
                                        sum &+= SIMD4<UInt32>(
                                            truncatingIfNeeded: UnsafeRawPointer(row + x * 4).loadUnaligned(
                                                as: SIMD4<UInt8>.self))
                                    }
                                    for c in 0..<4 { totals[block * 4 + c] &+= sum[c] }
                                }
                            }
                            // The averages, written into the block row's first row, then copied down.
                            let first = output + top * rowLength
                            for block in 0..<columns {
                                let left = block * size, right = min(left + size, w)
                                let count = UInt32((right - left) * (bottom - top))
                                var mean = SIMD4<UInt8>()
                                for c in 0..<4 { mean[c] = UInt8((totals[block * 4 + c] + count / 2) / count) }
                                for x in left..<right {
                                    UnsafeMutableRawPointer(first + x * 4).storeBytes(of: mean, as: SIMD4<UInt8>.self)
                                }
                            }
                            for y in (top + 1)..<bottom {
                                (output + y * rowLength).update(from: first, count: w * 4)
                            }
                        }
                    }
                }
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Pixelate {
    /// Averages blocks of `size` × `size` pixels (see ``ImageProcessors/Pixelate``).
    public static func pixelate(size: Int) -> Self { .init(size: size) }
}
