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
        /// reduced size asks the decoder to stop at 1.5 times the output's size or more (see
        /// ``decodingHeadroom``), so that the kernel still has the detail to work with. The
        /// quality figures are in BENCHMARKS.md.
        case lanczos3
        /// The fast option: each output pixel is the exact average of the source area it covers (a
        /// box filter over fractional coverage), and a pipeline decodes at the smallest reduced
        /// size that still covers the output. Cheaper, and visibly softer: against a full-size
        /// decode resized with Lanczos3, a 256² thumbnail of a 1024×768 photo measures about 41 dB
        /// PSNR and a quarter less edge energy (BENCHMARKS.md), where ``lanczos3`` measures the
        /// same as libvips.
        case areaAverage

        /// How many times larger than the output a decoder's reduced-size result must stay:
        /// 1.5 for ``lanczos3``, 1 for ``areaAverage``.
        ///
        /// Lanczos3's figure is chosen by measured cost and quality together (BENCHMARKS.md).
        /// libjpeg-turbo's cheap reduced decodes are 1/2, 1/4 and 1/8 (its 3/8…7/8 cost more than
        /// a full decode); each is about the full-size decode averaged over 2², 4² or 8² pixels,
        /// and the resize undoes that softness and frames on the file's exact sides (see
        /// `DecodeReduction`). A 256² fill of a 1024×768 photo (3×) then decodes at 1/2 and
        /// measures 49–50 dB against a full-size decode resized with Lanczos3, for about half
        /// the CPU of the full-size decode and its 19-tap resize; libvips' rule (leave two or
        /// more) would decode it at full size. Below a reduction of 1.5 left to the kernel the
        /// decode's aliasing shows (a 3/2 reduction left measured 45.5 dB on the Kodak photos,
        /// 42 dB at 1.1).
        public var decodingHeadroom: Double {
            switch self {
            case .lanczos3: 1.5
            case .areaAverage: 1
            }
        }
    }
}
