extension ImageProcessors.Resize {
    /// How a resize computes each output pixel from the source pixels around it.
    ///
    /// Both filters work on premultiplied colour in the stored (sRGB-encoded) values, and both
    /// enlarge with Lanczos3 (an area average has nothing to average when a source pixel covers
    /// several output pixels).
    public enum Filter: String, Sendable, Hashable, CaseIterable {
        /// The default: a Lanczos3 kernel (a windowed sinc three lobes wide, stretched by the
        /// reduction factor when shrinking), as libvips' `vips_reduce` and Pillow's `LANCZOS`.
        /// As sharp as a full-size decode resized with Lanczos3 in floating point, within
        /// rounding, when the decode is at full size; a resize that a pipeline decodes at a
        /// reduced size asks the decoder to stop at twice the output's size or more (see
        /// ``decodingHeadroom``), as libvips' shrink-on-load does, so that the kernel still has the
        /// detail to work with. The quality figures are in BENCHMARKS.md.
        case lanczos3
        /// The fast option: each output pixel is the exact average of the source area it covers (a
        /// box filter over fractional coverage), and a pipeline decodes at the smallest reduced
        /// size that still covers the output. Cheaper, and visibly softer: against a full-size
        /// decode resized with Lanczos3, a 256² thumbnail of a 1024×768 photo measures about 41 dB
        /// PSNR and a quarter less edge energy (BENCHMARKS.md), where ``lanczos3`` measures the
        /// same as libvips.
        case areaAverage

        /// How many times larger than the output a decoder's reduced-size result must stay:
        /// 2 for ``lanczos3`` (libvips' rule: shrink-on-load leaves the kernel a reduction of two
        /// or more, since a DCT-scaled decode is softer than the same reduction by the kernel);
        /// 1 for ``areaAverage``.
        public var decodingHeadroom: Int {
            switch self {
            case .lanczos3: 2
            case .areaAverage: 1
            }
        }
    }
}
