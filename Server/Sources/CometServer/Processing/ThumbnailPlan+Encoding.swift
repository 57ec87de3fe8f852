import Comet

extension ThumbnailPlan {
    /// How the result is written: every encoder setting an option may set, and their use.
    public struct Encoding: Sendable, Equatable {
        /// The encoder quality (1...100), or `nil` for the format's default.
        public var quality: Int?
        /// The output format asked for, or `nil` to take it from the URL's extension or `Accept`.
        public var format: OutputFormat?
        /// The colour a transparent result is laid on, in every format (`bg`, as imgproxy's
        /// flattens), or `nil`: transparency kept where the format holds it, white in JPEG.
        public var background: RGBA8?
        /// Qualities for single formats (`fq`), over ``quality``.
        public var formatQualities: [OutputFormat: Int] = [:]
        /// The most bytes a JPEG, WebP or AVIF result should have (`mb`), or `nil`.
        public var maximumBytes: Int?

        /// The most encodes after the first that ``maximumBytes`` may cost: a bisection of the
        /// quality range, so the quality found is within 2 of the best that fits.
        public static let maximumBytesSearchSteps = 6

        /// Encodes `image` as `format` (the one asked for, or the one negotiated) with these
        /// settings. With ``maximumBytes`` and a lossy format, a result over it is encoded again
        /// at lower qualities (a bisection of at most ``maximumBytesSearchSteps`` encodes): the
        /// highest quality found that fits, else the smallest result made. The search stops
        /// early when the next encode, taking as long as the last one did, would end past
        /// `deadline`.
        public func encode(_ image: Image, as format: OutputFormat, deadline: ContinuousClock.Instant? = nil) throws
            -> [UInt8]
        {
            // As imgproxy: a background asked for flattens every format; without one, only a
            // format without alpha is laid on white.
            let input =
                format.keepsAlpha && background == nil
                ? image : image.flattened(onto: background ?? RGBA8(red: 255, green: 255, blue: 255))
            return try fitting(format: format, deadline: deadline) { quality in
                try format.encode(input, quality: quality)
            }
        }

        /// The result of `encode` at this format's quality (`nil`: the format's default) and,
        /// with ``maximumBytes``, when that is over it, the bisection ``encode(_:as:deadline:)``
        /// describes over lower qualities, stopped early before `deadline`.
        func fitting(
            format: OutputFormat, deadline: ContinuousClock.Instant?, _ encode: (Int?) throws -> [UInt8]
        ) throws -> [UInt8] {
            let clock = ContinuousClock()
            var started = clock.now
            let quality = formatQualities[format] ?? quality
            let first = try encode(quality)
            guard let maximumBytes, first.count > maximumBytes, let start = quality ?? format.defaultQuality else {
                return first
            }
            var (low, high) = (1, min(start, 99) - 1)
            var fitting: [UInt8]?
            var smallest = first
            for _ in 0..<Self.maximumBytesSearchSteps where low <= high {
                let now = clock.now
                if let deadline, now + (now - started) > deadline { break }
                started = now
                let middle = (low + high) / 2
                let candidate = try encode(middle)
                if candidate.count <= maximumBytes {
                    fitting = candidate
                    low = middle + 1
                } else {
                    if candidate.count < smallest.count { smallest = candidate }
                    high = middle - 1
                }
            }
            return fitting ?? smallest
        }
    }
}
