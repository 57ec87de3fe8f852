import Foundation

extension ImageProcessors {
    /// Sharpens an image with an unsharp mask: each pixel moves away from its Gaussian-blurred
    /// neighbourhood, `out = in + amount × (in − blur(in))`, clamped to 0…255.
    ///
    /// `radius` is the Gaussian's standard deviation σ in pixels, as for ``GaussianBlur`` (and
    /// imgproxy's `sharpen:%sigma`, whose guideline is 0.5 for screens, 1 to 1.5 for print).
    /// Up to σ 2 the blur is a true Gaussian (a separable kernel of ±3σ,
    /// edges extended): ``GaussianBlur``'s box approximation cannot represent the small σ
    /// sharpening mostly uses. Such a kernel costs `6σ + 1` multiply-adds per byte and pass, so
    /// above that σ the blur is ``GaussianBlur``'s three box passes instead (within a level or
    /// two of the true Gaussian there, at a cost that does not grow with σ).
    /// Alpha is kept; colour is sharpened premultiplied (so transparent neighbours do not bleed
    /// in) and stays within its alpha. Run it after the resize, on the small image.
    ///
    /// Limits: `radius` ≤ ``maximumRadius``, `amount` in ``amountRange``; other values make
    /// ``validate()`` and ``process(_:)`` throw.
    public struct Sharpen: ImageProcessing, Hashable {
        /// The largest σ accepted, in pixels: beyond it an unsharp mask is a local-contrast
        /// filter, not sharpening, and its cost grows with σ.
        public static let maximumRadius: Double = 16
        /// The accepted strengths (thumbor's typical range for its `sharpen` amount).
        public static let amountRange: ClosedRange<Double> = 0...10

        /// The Gaussian's standard deviation σ, in pixels.
        public let radius: Double
        /// How far pixels move away from the blur (1 doubles the difference).
        public let amount: Double

        /// An unsharp mask of σ `radius` (in `unit`) and strength `amount`.
        public init(radius: Double = 1, amount: Double = 1, unit: Unit = .pixels) {
            self.radius = unit.pixels(radius)
            self.amount = amount
        }

        /// E.g. `com.comet.sharpen?radius=0.5&amount=1`.
        public var identifier: String {
            "com.comet.sharpen?radius=\(identifierNumber(radius))&amount=\(identifierNumber(amount))"
        }

        /// Throws ``ImageProcessingError`` when ``radius`` or ``amount`` is out of its range;
        /// ``process(_:)`` calls it first, and a server may call it before fetching anything.
        public func validate() throws(ImageProcessingError) {
            guard radius >= 0, radius <= Self.maximumRadius else {
                throw ImageProcessingError(
                    processor: identifier,
                    reason: "the sharpening radius must be from 0 to \(identifierNumber(Self.maximumRadius)) pixels")
            }
            guard Self.amountRange.contains(amount) else {
                throw ImageProcessingError(processor: identifier, reason: "the sharpening amount must be from 0 to 10")
            }
        }

        /// The largest σ blurred by a true Gaussian kernel; above it, by three box passes.
        static let exactRadiusLimit: Double = 2

        /// The sharpened image (the image itself when σ or the amount is 0).
        public func process(_ image: Image) throws -> Image {
            try validate()
            guard amount > 0 else { return image }
            if radius > Self.exactRadiusLimit {
                let widths = BoxBlur.boxWidths(sigma: min(radius, Double(max(image.width, image.height)) / 2))
                guard widths.contains(where: { $0 > 1 }) else { return image }
                return PixelRows.onPremultipliedColor(image) { masked($0, by: BoxBlur.blur($0, boxWidths: widths)) }
            }
            let kernel = Self.kernel(sigma: radius)
            guard kernel.count > 1 else { return image }
            return PixelRows.onPremultipliedColor(image) { sharpened($0, kernel: kernel) }
        }

        /// `image` moved away from `blurred` (the same size and format): the mask of the box path.
        private func masked(_ image: Image, by blurred: Image) -> Image {
            let premultiplied = image.pixelFormat == .rgba8Premultiplied && !image.isOpaque
            let gain = Float(amount)
            return blurred.withUnsafeBytes { blurredBytes in
                let base = blurredBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var y = 0
                return PixelRows.map(image, isOpaque: image.isOpaque) { input, out, width in
                    let soft = base + y * blurred.bytesPerRow
                    y += 1
                    for i in 0..<(width * 4) {
                        let v = Float(input[i])
                        let s = min(max(v + gain * (v - Float(soft[i])), 0), 255)
                        out[i] = UInt8(truncatingIfNeeded: (s + Self.roundingBias).bitPattern)
                    }
                    Self.keepAlpha(input, out, width: width, premultiplied: premultiplied)
                }
            }
        }

        /// Copies `input`'s alpha to `out`, and keeps premultiplied colour within it.
        private static func keepAlpha(
            _ input: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, width: Int, premultiplied: Bool
        ) {
            for x in 0..<width {
                let a = input[x * 4 + 3]
                out[x * 4 + 3] = a
                if premultiplied {
                    for c in 0..<3 { out[x * 4 + c] = min(out[x * 4 + c], a) }
                }
            }
        }

        /// 1.5 × 2²³: a float in 0…255 plus this holds its nearest integer in its low bits.
        private static let roundingBias: Float = 12_582_912

        /// A normalised Gaussian of standard deviation `sigma`, ±⌈3σ⌉ taps (one tap below σ 1/3).
        static func kernel(sigma: Double) -> [Float] {
            let reach = Int((3 * sigma).rounded(.up))
            guard sigma > 0, reach > 0 else { return [1] }
            let weights = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let total = weights.reduce(0, +)
            return weights.map { Float($0 / total) }
        }

        /// `image` sharpened with `kernel`: horizontal passes into a ring of `kernel.count`
        /// float rows (each source row once), a vertical pass per output row, then the mask.
        private func sharpened(_ image: Image, kernel: [Float]) -> Image {
            let (w, h) = (image.width, image.height)
            let reach = kernel.count / 2, taps = kernel.count
            let n = w * 4
            let extended = UnsafeMutablePointer<Float>.allocate(capacity: (w + 2 * reach) * 4)
            let ring = UnsafeMutablePointer<Float>.allocate(capacity: taps * n)
            let blurred = UnsafeMutablePointer<Float>.allocate(capacity: n)
            defer { extended.deallocate(); ring.deallocate(); blurred.deallocate() }
            let premultiplied = image.pixelFormat == .rgba8Premultiplied && !image.isOpaque
            let gain = Float(amount)
            return kernel.withUnsafeBufferPointer { k in
                image.withUnsafeBytes { source in
                    let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    func row(_ y: Int) -> UnsafePointer<UInt8> { src + y * image.bytesPerRow }
                    // The horizontal pass of source row `y`, into its slot of the ring.
                    func horizontal(_ y: Int) {
                        let input = row(y)
                        // The row as floats, its edge pixels repeated `reach` times on each side.
                        let interior = extended + reach * 4
                        for i in 0..<n { interior[i] = Float(input[i]) }
                        for x in 0..<reach {
                            for c in 0..<4 {
                                extended[x * 4 + c] = interior[c]
                                interior[n + x * 4 + c] = interior[n - 4 + c]
                            }
                        }
                        let out = ring + (y % taps) * n
                        out.initialize(repeating: 0, count: n)
                        for t in 0..<taps {
                            let weight = k[t], shifted = extended + t * 4
                            for i in 0..<n { out[i] += weight * shifted[i] }
                        }
                    }
                    var done = 0  // source rows through the horizontal pass
                    return Image(width: w, height: h, pixelFormat: image.pixelFormat, isOpaque: image.isOpaque) {
                        pixels, rowLength in
                        let output = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        for y in 0..<h {
                            while done <= min(y + reach, h - 1) { horizontal(done); done += 1 }
                            blurred.initialize(repeating: 0, count: n)
                            for t in 0..<taps {
                                let weight = k[t], slot = ring + (min(max(y + t - reach, 0), h - 1) % taps) * n
                                for i in 0..<n { blurred[i] += weight * slot[i] }
                            }
                            let input = row(y), out = output + y * rowLength
                            for i in 0..<n {
                                let v = Float(input[i])
                                let s = min(max(v + gain * (v - blurred[i]), 0), 255)
                                // Adding 1.5 × 2²³ leaves s rounded to the nearest integer in the
                                // low mantissa bits: a conversion without the checked path's
                                // branches, so the loop vectorises.
                                out[i] = UInt8(truncatingIfNeeded: (s + Self.roundingBias).bitPattern)
                            }
                            Self.keepAlpha(input, out, width: w, premultiplied: premultiplied)
                        }
                    }
                }
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Sharpen {
    /// Sharpens with an unsharp mask of σ `radius` pixels and strength `amount` (see
    /// ``ImageProcessors/Sharpen``).
    public static func sharpen(radius: Double = 1, amount: Double = 1, unit: ImageProcessors.Unit = .pixels) -> Self {
        .init(radius: radius, amount: amount, unit: unit)
    }
}
